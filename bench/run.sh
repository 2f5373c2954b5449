#!/usr/bin/env bash
# Builds guard-benchmarks and runs a short JMH pass over guard, its peers and the baselines at
# 1 and 2 threads, then writes the table to docs/PERFORMANCE-latest.md.
#
#   bench/run.sh                 every benchmark (a few minutes on 2 cores)
#   bench/run.sh 'QpsPass|Refusal'   only benchmarks whose name matches the regex
#
# Environment: THREADS (default "1 2") and JMH_OPTS (default: the short settings below) change
# the run; JMH_OPTS="-f 2" keeps the benchmarks' own, longer settings, for numbers worth publishing.
#
# The warm-up is 6 s even in the short run because Sentinel needs it: its clock (TimeUtil) only
# switches to its cached, cheap mode after a few seconds of load, and its long slot chain takes
# about as long to compile. With 2 s of warm-up Sentinel measured 3-5x slower than its steady state.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

filter="${1:-dev\.guard\.benchmarks\.}"
threads="${THREADS:-1 2}"
read -r -a timing <<< "${JMH_OPTS:--f 1 -wi 3 -w 2s -i 3 -r 1s}"

jar="guard-benchmarks/target/benchmarks.jar"
results="guard-benchmarks/target/jmh-results"
report="docs/PERFORMANCE-latest.md"

echo "== building $jar"
mvn -q -Pbench -pl guard-benchmarks -am package -DskipTests

rm -rf "$results"
mkdir -p "$results"
files=()
for t in $threads; do
  out="$results/threads-$t.json"
  echo "== running '$filter' with $t thread(s)"
  # -foe: a failed sanity check in a state's @Setup stops the run instead of leaving a gap.
  java -jar "$jar" "$filter" \
    "${timing[@]}" -t "$t" -bm avgt -tu ns -prof gc -foe true \
    -jvmArgsAppend "-Dcsp.sentinel.log.dir=$root/$results/sentinel-logs" \
    -rf json -rff "$out"
  files+=("$out")
done

java -cp "$jar" dev.guard.benchmarks.MarkdownReport "$report" "${files[@]}"
echo "== wrote $report"
