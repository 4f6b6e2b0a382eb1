# Sourced by the bench/*.sh scripts: compiles the bench profile (src/bench/java as test sources,
# with JMH and HdrHistogram) once, and sets CP. BENCH_SKIP_BUILD=1 reuses the last build (bench/all.sh).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -f target/bench.classpath ]; then
  mvn -B -q -ntp -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
fi
CP="target/test-classes:target/classes:$(cat target/bench.classpath)"
# The JVM options ./gpurent runs the service with (config/jvm.options), for the benchmarks that run it in-process.
SERVICE_JVM=()
while IFS= read -r o; do
  [[ -z $o || $o == \#* ]] || SERVICE_JVM+=("$o")
done < config/jvm.options
# Benchmarks share 2 cores with whatever else runs: say how busy the machine was.
echo "# $(date -u +%FT%TZ) uptime:$(uptime)"
