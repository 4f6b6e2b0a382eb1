#!/usr/bin/env bash
# What a live scenario holds per workload and vendor on the recorded sample root: the figure behind
# the ranking budget's weight (RankingBudget.LIVE_BYTES_PER_CELL). About a minute.
#   bench/footprint.sh                      the live ranking and its update, as the RankingVerticle keeps them
#   bench/footprint.sh -Dbench.render=true  each also rendered once, its REST body kept (a fetched scenario)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /tmp/gpurent-bench-footprint.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
bench/sample-root.sh "$tmp/root" > /dev/null
java "${SERVICE_JVM[@]}" "$@" -Dbench.root="$tmp/root" -cp "$CP" dev.gpurent.cli.LiveFootprint
