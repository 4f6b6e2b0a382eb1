#!/usr/bin/env bash
# Builds a gpurent root whose vendors read the recorded payloads in ../shared/data instead of
# the live APIs: every shipped adapters/*.yaml, its `source:` pointed at that vendor's recorded
# file (vendors with no recording are left out). For demos and figures without network:
#   bench/sample-root.sh target/sample-root
#   ./gpurent vendors --root target/sample-root
#   ./gpurent rank config/scenarios/guide-template-open.yaml --root target/sample-root --top 0
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/sample-root}
data=$(cd ../shared/data && pwd)
sky=$data/skypilot-catalog-format
# The per-token files of inference APIs (PROVENANCE.md 10, trap 5), for the token price book.
tok=$data/opencomputeprices/2026-03-22
obs=$data/market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv
ocp=$data/opencomputeprices/2026-03-22   # OpenComputePrices, one file per collector (PROVENANCE.md 10)
declare -A src=(
  [azure]=$sky/anycloud-sh/azure/vms.gpu.csv
  [gcp]=$sky/anycloud-sh/gcp/vms.gpu.csv
  [lambda]=$sky/anycloud-sh/lambda/vms.gpu.csv
  [vast]=$sky/anycloud-sh/vast/vms.gpu.csv
  [paperspace]=$sky/skypilot-org/v6/paperspace/vms.csv
  [digitalocean]=$sky/skypilot-org/v6/do/vms.csv
  [fluidstack]=$sky/skypilot-org/v6/fluidstack/vms.csv
  [cudo]=$sky/skypilot-org/v8/cudo/vms.first36rows.csv
  [hyperbolic]=$sky/skypilot-org/v8/hyperbolic/vms.csv
  [oci]=$sky/skypilot-org/v8/oci/vms.gpu.af-casablanca-1.csv
  [ibm]=$sky/skypilot-org/v5/ibm/vms.csv
  [scp]=$sky/skypilot-org/v5/scp/vms.gpu.first-page.csv
  [shadeform]=$sky/skypilot-org/v8/shadeform/vms.csv
  [primeintellect]=$sky/skypilot-org/v8/primeintellect/vms.csv
  [seeweb]=$sky/skypilot-org/v8/seeweb/vms.csv
  [hyperstack]=$sky/skypilot-org/v8/hyperstack/vms.csv
  [jarvislabs]=$sky/skypilot-org/v8/jarvislabs/vms.csv
  [mithril]=$sky/skypilot-org/v8/mithril/vms.csv
  [spheron]=$sky/skypilot-org/v8/spheron/vms.csv
  [daytona]=$sky/skypilot-org/v8/daytona/vms.csv
  [verda]=$sky/skypilot-org/v8/verda/vms.csv
  [runpod]=$data/runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json
  [aws]=$data/aws/price-list-offer-file/opencost-pricing-us-east-1.json
  [aws-ec2info]=$data/aws/ec2instances-info/opszero-instances.gpu.non-eu.json
  [aws-china]=$data/aws/ec2instances-info/china-regions/tsaol-gpu_instances_raw_cn.2026-01-21.json
  [aws-spot]=$data/aws/spot-js/netflix-asgard-mock-spot.2012-12-11.js
  [gcp-machines]=$data/gcp/cyclenerd-pricing-yml/pricing.gpu-instances.2026-07-30.yml
  [gcp-catalog]=$data/gcp/cloud-billing-catalog/jumbo2020-gcp_gpu_skus.skuId-0-D.json
  [oci-list]=$data/oci/price-list-api/opencost-prices_usd.json
)
# The date of each recording whose payload states none (SkyPilot CSVs, instances.json files,
# spot.js, RunPod's gpuTypes, OCI's price list), from ../shared/data/PROVENANCE.md: the commit
# date of the recorded version, or the date in its file name. Written as the vendor's asOf:, so
# the sample's prices are dated as old as they are rather than by the fetch. The skypilot-org
# catalogs (paperspace, digitalocean, fluidstack, cudo, hyperbolic, oci, ibm, scp; and shadeform,
# primeintellect, seeweb, hyperstack, jarvislabs, mithril, spheron, daytona, verda) are left out:
# PROVENANCE.md 1a and 1c say the index they came from gave no dates, so their prices stay dated
# by the fetch. Payloads with a date of their own (the AWS offer file's publicationDate, pricing.yml's
# generated, the billing catalog's effectiveTime, the observations' day) need none.
declare -A asof=(
  [azure]=2026-05-20              # anycloud-sh/catalog 62ff0a98, 2026-05-20
  [gcp]=2026-05-20                # same commit
  [lambda]=2026-05-07             # last changed in 4c061026, 2026-05-07
  [vast]=2026-04-29               # 336ccee4, 2026-04-29
  [runpod]=2025-06-21T23:18:00Z   # Jumbo2020/gpu_prices 13a47f94, 2025-06-21 23:18 UTC (the file name's time)
  [aws-ec2info]=2024-04-04        # vantage-sh/ec2instances.info a19cd859, 2024-04-04
  [aws-china]=2026-01-21          # tsaol/aws-gpu 7412fd25, 2026-01-21
  [aws-spot]=2012-12-11           # Netflix/asgard 16c117d1, 2012-12-11
  [oci-list]=2024-01-19           # opencost prices_usd.json, file added 2024-01-19
)
rm -rf "$out"
mkdir -p "$out/config" "$out/adapters"
cp -r config/gpus.yaml config/models.yaml config/throughput.yaml config/regions.yaml config/scenarios "$out/config/"
sed -e "s#^  source: https://www.ecb.europa.eu.*#  source: $data/ecb/eurofxref-daily.2025-05-09.xml#" \
    -e "s#^  spotRisk: .*#  spotRisk: $data/aws/spot-advisor/spot-advisor-data.2025-06-28.json#" \
    -e "s#^  cacheDir: .*#  cacheDir: \"\"#" \
    -e "s#^  files: \[\] .*#  files: [$tok/openrouter.csv, $tok/deepinfra.csv, $tok/together.csv, $tok/novita.csv]#" \
    config/gpurent.yaml > "$out/config/gpurent.yaml"
cp adapters/guide-reference.yaml "$out/adapters/"
for f in adapters/*.yaml; do
  name=$(basename "$f" .yaml)
  kind=$(sed -n 's/^kind: *\([a-z0-9-]*\).*/\1/p' "$f")
  file=${src[$name]:-}
  [ "$kind" = market-observations ] && file=$obs
  if [ "$kind" = opencomputeprices ]; then
    # the recorded day's file of the same name, for the source and a crossCheck's source alike
    sed -E "s#^(  )?source: .*/([a-z0-9_]+\.csv)\$#\1source: $ocp/\2#" "$f" > "$out/adapters/$name.yaml"
    continue
  fi
  [ -n "$file" ] || continue
  dated=${asof[$name]:+\\nasOf: \"${asof[$name]}\"}
  sed "s#^source:.*#source: $file$dated#" "$f" > "$out/adapters/$name.yaml"
done
echo "sample root: $out ($(ls "$out/adapters" | wc -l) vendors)"
