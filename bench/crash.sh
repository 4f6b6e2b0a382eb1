#!/usr/bin/env bash
# SIGKILLs a child JVM writing 100,000-quote snapshots to SQLite at random moments, N times, and
# checks after each kill that the file passes PRAGMA integrity_check and that every snapshot in it
# is whole (the test suite does 50 kills, 0-400 ms into the writing). Here the window is wider by
# default, so that kills also land on commits, WAL checkpoints and deletes.
# Usage: bench/crash.sh [kills=500] [maxDelayMs=1500] [seed]. About 2 s per kill (500: ~16 min).
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-500}"
delay="${2:-1500}"
seed=()
if [ $# -ge 3 ]; then seed=("-Dgpurent.crash.seed=$3"); fi
# the test prints one line of figures ("snapshot crash test: ...") and fails on the first bad file
exec mvn -B -q -ntp test -Dtest=SnapshotCrashTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dgpurent.crash.kills="$kills" -Dgpurent.crash.maxDelayMs="$delay" "${seed[@]}"
