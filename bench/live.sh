#!/usr/bin/env bash
# Live re-ranking: 10,000 live scenarios of mixed sizes on the recorded sample root, 1,000 dashboards,
# one vendor's prices changing; latency from the change to each dashboard, lost rankings, and CPU time
# per change, incremental against a full re-rank of the same scenarios in the same run. About 4-6 minutes.
# --nodes N: the same on a cluster of N node JVMs (gpurent serve --cluster, one PostgreSQL), the
# scenarios and dashboards spread over them; node logs in target/live-cluster-n*.log.
# JVM options and -Dbench.* properties (see the class's javadoc) go after the script name, e.g.
#   bench/live.sh -Dbench.scenarios=2000 -Dbench.changes=5
#   bench/live.sh --nodes 3 -Dbench.nodeHeap=4g
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nodes=1
if [ "${1:-}" = --nodes ]; then nodes=$2; shift 2; fi
# the sample root and, in a cluster, each node's and the reference's copies of it
tmp=$(mktemp -d /tmp/gpurent-bench-live.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
bench/sample-root.sh "$tmp/root" > /dev/null
# the service's own JVM options (config/jvm.options) first: arguments after the script's name can override them
java "${SERVICE_JVM[@]}" "$@" -Dbench.nodes="$nodes" -Dbench.root="$tmp/root" -cp "$CP" dev.gpurent.bench.LiveRerank
