#!/usr/bin/env bash
# HTTP load on loopback: a Vert.x JSON hello-world (the baseline) against gpurent started by Bootstrap
# with fake vendors. Closed-loop maximum throughput at 64 connections (5 s warm-up + 10 s) for the
# baseline, GET /api/scenarios/{id}/ranking (cached) and POST /api/rank; then open loop at half the
# baseline's maximum, latency from each request's intended send time (coordinated omission
# corrected): p50/p99/p99.9, errors; PASS/MISS against the targets. About 4 minutes.
# JVM options and -Dbench.* properties (see the class's javadoc) go after the script name, e.g.
#   bench/http.sh -Dbench.measure=5
set -euo pipefail
source "$(dirname "$0")/lib.sh"
exec java "$@" -cp "$CP" dev.gpurent.bench.HttpLoad
