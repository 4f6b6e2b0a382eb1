#!/usr/bin/env bash
# WebSocket fan-out: 1,000 dashboards over 20 live scenarios; latency from a price change (the fake
# RunPod's payload rescaled + POST /api/admin/refresh) to each client's new ranking; then 10% stop
# reading and changes go on until the server closes them (wsStallLimit 5s for this run). Heap after
# GC and the server's kernel send queues throughout. About 1.5-2 minutes.
# JVM options and -Dbench.* properties (see the class's javadoc) go after the script name, e.g.
#   bench/ws.sh -Dbench.changes=10
set -euo pipefail
source "$(dirname "$0")/lib.sh"
exec java "$@" -cp "$CP" dev.gpurent.bench.WsFanout
