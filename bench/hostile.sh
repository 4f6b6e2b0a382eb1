#!/usr/bin/env bash
# Hostile input and overload on loopback (issues 15 and 28): starts gpurent on the recorded payloads
# (bench/sample-root.sh) in a JVM of its own, then replays, each bounded in count and time: the
# 5,136-workload body x 8 in parallel, the largest admitted scenario x 16, 31 large live scenarios
# (refusals counted by reason: memory budget, queue, per-client cap), registration from 127.0.0.2-30,
# an alias-bomb YAML and a recursive alias (admin reload and the CLI), the 20,000-row XFD quote
# sheet uploaded 4 at a time, 30 WebSocket clients that never read, 5,000 slow-header connections,
# 10,000 WebSocket open/close cycles, 4 sockets flooding pings that never read,
# webhooks to loopback and internal targets and 20 registrations amplifying POSTs to one URL, the
# store corrupted under the running server.
# For each it prints what the attacker got, the server's peak heap and heap after GC, and /health
# latency for a well-behaved client during it. About 5 minutes.
#   bench/hostile.sh                     # server heap limit 1g (GPURENT_BENCH_XMX to change it)
#   bench/hostile.sh -Dbench.attacks=wscycles,pingflood   # only these attacks (names in HostileBench's comment)
set -euo pipefail
cd "$(dirname "$0")/.."
# the server's jar first: a build without the bench profile drops the bench classes lib.sh compiles
[ -f target/gpurent.jar ] && [ -z "$(find src/main pom.xml -newer target/gpurent.jar -print -quit)" ] \
  || mvn -B -q -ntp package -DskipTests
BENCH_SKIP_BUILD=0 source bench/lib.sh
root=target/hostile-root
bench/sample-root.sh "$root" >/dev/null
port=${GPURENT_BENCH_PORT:-18089}
token=bench-admin-token
log=target/hostile-server.log
if curl -s -o /dev/null "http://127.0.0.1:$port/health"; then echo "port $port is taken: set GPURENT_BENCH_PORT"; exit 1; fi
# the webhook sink on 127.0.0.2 stands in for a host outside: the operator allows it
GPURENT_ADMIN_TOKEN=$token GPURENT_HTTP_PORT=$port GPURENT_HTTP_WSSTALLLIMIT=5s GPURENT_ALERTS_ALLOWHOSTS=127.0.0.2 \
  java "-Xmx${GPURENT_BENCH_XMX:-1g}" -jar target/gpurent.jar serve --root "$root" >"$log" 2>&1 &
server=$!
# a server wedged by an attack may not stop on SIGTERM: SIGKILL after 10 s
trap 'kill $server 2>/dev/null || true; for _ in $(seq 1 20); do kill -0 $server 2>/dev/null || break; sleep 0.5; done; kill -9 $server 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break
  kill -0 $server 2>/dev/null || { echo "the server did not start:"; tail -20 "$log"; exit 1; }
  sleep 0.5
done
# the first fetch of every vendor, done before any attack
curl -s -o /dev/null -X POST -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/admin/refresh"
echo "# server: $(curl -s "http://127.0.0.1:$port/health" | head -c 200)"
java "$@" -cp "$CP" -Dbench.port=$port -Dbench.pid=$server -Dbench.root=$root -Dbench.token=$token \
  dev.gpurent.bench.HostileBench
echo "# server log: $(grep -c . "$log") lines, $(grep -c SEVERE "$log" || true) SEVERE, $(grep -c 'OutOfMemory' "$log" || true) OutOfMemoryError"
