#!/usr/bin/env bash
# JMH micro-benchmarks: the quote cache read path (Caffeine AsyncLoadingCache get of a present key,
# bridged to a Vert.x Future as QuoteVerticle does), QuoteBook construction for 2,400 and 120,000
# quotes, and FX rate lookup and conversion. Short settings (3 warm-up and 5 measured iterations of
# 1 s, one fork): about 1.5 minutes. Pass JMH options after the script name to override.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
exec java -cp "$CP" org.openjdk.jmh.Main 'dev\.gpurent\.bench\.(QuoteCacheBench|FxBench)\.' -wi 3 -i 5 -w 1s -r 1s -f 1 "$@"
