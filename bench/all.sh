#!/usr/bin/env bash
# Runs the benchmarks in sequence - micro (JMH), http, ws, faults; with BENCH_RANKING=1 also the JMH
# ranking benchmark (about 2 more minutes) - after one build, keeps each one's output under
# target/bench-logs/<time>/ and ends with a summary: the micro-benchmark table and every target
# line (PASS/MISS) with the load average each ran under. About 8 minutes. The machine has 2 cores:
# anything else running moves the figures, so each section records `uptime`.
set -uo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test || exit 1
export BENCH_SKIP_BUILD=1
logs="target/bench-logs/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$logs"
benches=(micro http ws faults)
[ "${BENCH_RANKING:-0}" = 1 ] && benches=(micro ranking http ws faults)
status=0
for b in "${benches[@]}"; do
  echo "=================== bench/$b.sh ($(uptime | sed 's/.*load average/load average/'))"
  if [ "$b" = ranking ]; then
    bench/ranking.sh -wi 3 -i 5 -w 1s -r 1s 2>&1 | tee "$logs/$b.log"
  else
    bench/"$b".sh 2>&1 | tee "$logs/$b.log"
  fi
  rc=${PIPESTATUS[0]}
  [ "$rc" = 0 ] || { echo "bench/$b.sh exited with $rc"; status=1; }
done

echo
echo "=================== SUMMARY (logs in $logs)"
for b in "${benches[@]}"; do
  f="$logs/$b.log"
  echo "--- $b: $(grep -m1 -E '^# .* uptime:' "$f" | sed 's/.*load average/load average/')"
  case "$b" in
    micro|ranking) sed -n '/^Benchmark /,$p' "$f" ;;
    *) grep -E '^(  (PASS|MISS|\(info\))|load average at end)' "$f" ;;
  esac
done
misses=$(cat "$logs"/*.log | grep -c '^  MISS' || true)
echo "--- $misses target(s) missed"
exit $status
