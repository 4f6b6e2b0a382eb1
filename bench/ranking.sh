#!/usr/bin/env bash
# JMH: ranking one scenario over 2,400 / 24,000 / 120,000 offers. Prints mean and percentiles
# per size; pass JMH options after the script name (e.g. -f 2 -wi 5). Takes about 2 minutes.
# `bench/ranking.sh --cpu [offers...]` times the same ranking by its thread's CPU time instead
# (RankingCpu: for a machine other builds share; about 40 s a size).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [ "${1:-}" = --cpu ]; then
  shift
  exec java -cp "$CP" dev.gpurent.bench.RankingCpu "$@"
fi
exec java -cp "$CP" org.openjdk.jmh.Main RankingBench "$@"
