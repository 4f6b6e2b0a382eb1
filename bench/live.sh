#!/usr/bin/env bash
# Live re-ranking: 10,000 live scenarios of mixed sizes on the recorded sample root, 1,000 dashboards,
# RunPod's prices changing; latency from the change to each dashboard, lost rankings, and CPU time per
# change, incremental against a full re-rank of the same scenarios in the same run. About 4-6 minutes.
# JVM options and -Dbench.* properties (see the class's javadoc) go after the script name, e.g.
#   bench/live.sh -Dbench.scenarios=2000 -Dbench.changes=5
set -euo pipefail
source "$(dirname "$0")/lib.sh"
root=$(mktemp -d /tmp/gpurent-bench-live.XXXXXX)
trap 'rm -rf "$root"' EXIT
bench/sample-root.sh "$root" > /dev/null
java "$@" -Dbench.root="$root" -cp "$CP" dev.gpurent.bench.LiveRerank
