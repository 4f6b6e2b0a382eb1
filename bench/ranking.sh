#!/usr/bin/env bash
# JMH: ranking one scenario over 2,400 / 24,000 / 120,000 offers. Prints mean and percentiles
# per size; pass JMH options after the script name (e.g. -f 2 -wi 5). Takes about 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" org.openjdk.jmh.Main RankingBench "$@"
