#!/usr/bin/env bash
# Snapshot write speed: 100,000 quotes through the SnapshotVerticle into a fresh SQLite file
# (WAL, synchronous=FULL), 5 runs; prints rows/s and elapsed ms per run, and the blocked
# event-loop events seen meanwhile (expected 0). Arguments: [rows] [runs]. Takes about 30 s.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" dev.gpurent.bench.SnapshotBench "$@"
