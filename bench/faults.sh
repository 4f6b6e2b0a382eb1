#!/usr/bin/env bash
# One faulty vendor among 20 (the QuoteVerticle alone; fake vendors serving the recorded payloads;
# timeout 2s, breaker maxFailures 2 / resetTimeout 3s): for SLOW, HANG, HTTP_503, RESET, TRUNCATED,
# GARBAGE and ZERO_PRICES, the other 19 vendors' refresh times, the faulty one's freshness, kept
# quotes and breaker transitions, its recovery; expiry past expireAfter on an injected clock. ~40 s.
# JVM options and -Dbench.* properties (see the class's javadoc) go after the script name, e.g.
#   bench/faults.sh -Dbench.faulty=runpod -Dbench.slowMs=1500
set -euo pipefail
source "$(dirname "$0")/lib.sh"
exec java "$@" -cp "$CP" dev.gpurent.bench.FaultScale
