#!/usr/bin/env bash
# Measures what guard's Spring MVC adapter costs the server per request: the example shop
# (guard-spring-boot-example) is started once with the adapter (guard.web.enabled=true) and once
# without it (false), same JVM flags, and wrk drives the same endpoint of each in turn, round after
# round. A run's figure is the server's CPU time (user + system, /proc/<pid>/stat) over the run
# divided by the requests wrk completed; the report gives every run, the median of each variant,
# and the median over rounds of the paired difference (adapter on minus off, same tree, same round).
#
#   bench/mvc.sh                         this tree, adapter on and off, 3 rounds
#   bench/mvc.sh /path/to/other/tree     also that tree's shop (built the same way), interleaved:
#                                        "before" and "after" a change in one run
#
# Environment: ROUNDS (default 5), DURATION (seconds per run, default 10), WARMUP (seconds of
# load on each shop before the first round, default 60: the JIT compiles
# for a long time on a busy machine, and its threads count in the CPU time), CONNECTIONS (default 8), WRK_THREADS (default 1),
# ENDPOINT (default /orders/1), JAVA_OPTS (default -Xms256m -Xmx256m -XX:+UseSerialGC),
# SHOP_ARGS (extra Spring Boot arguments for every shop), BUILD=0 (use the shops built last time).
#
# The shop's own rules are replaced by one QPS rule on GET /orders/{id} that is never reached and
# its rate-limit fields are off, so every request is admitted and the figure is the adapter's.
# Needs wrk (apt-get install wrk). Every server binds port 0 and is stopped at the end.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-5}"
duration="${DURATION:-10}"
warmup="${WARMUP:-60}"
connections="${CONNECTIONS:-8}"
wrk_threads="${WRK_THREADS:-1}"
endpoint="${ENDPOINT:-/orders/1}"
read -r -a java_opts <<< "${JAVA_OPTS:--Xms256m -Xmx256m -XX:+UseSerialGC}"
read -r -a shop_args <<< "${SHOP_ARGS:-}"
work="$(mktemp -d)"
pids=()

if ! command -v wrk > /dev/null; then
  echo "bench/mvc.sh needs wrk: apt-get install wrk" >&2
  exit 1
fi

cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2> /dev/null || true
  done
}
trap cleanup EXIT

# classpath TREE: builds the shop of that tree (no install) and prints its class path
classpath() {
  local tree="$1"
  if [ "${BUILD:-1}" = 0 ] && [ -f "$tree/guard-spring-boot-example/target/shop-classpath.txt" ]; then
    echo "$tree/guard-spring-boot-example/target/classes:$(cat "$tree/guard-spring-boot-example/target/shop-classpath.txt")"
    return
  fi
  (cd "$tree" && mvn -B -ntp -q -o -pl guard-spring-boot-example -am package \
    dependency:build-classpath -Dmdep.outputFile=target/shop-classpath.txt -DskipTests \
    -Dcheckstyle.skip -Dmaven.javadoc.skip=true > "$work/build.log" 2>&1) \
    || { cat "$work/build.log" >&2; exit 1; }
  echo "$tree/guard-spring-boot-example/target/classes:$(cat "$tree/guard-spring-boot-example/target/shop-classpath.txt")"
}

# start NAME CLASSPATH WEB_ENABLED: starts a shop on port 0 and records its pid and port
declare -A pid_of port_of
start() {
  local name="$1" cp="$2" web="$3" log="$work/$1.log"
  java "${java_opts[@]}" -cp "$cp" dev.guard.examples.spring.ShopApplication \
    --server.port=0 --guard.web.enabled="$web" --guard.web.rate-limit-headers=false \
    --guard.rules.flow[0].resource='GET /orders/{id}' --guard.rules.flow[0].qps=1000000000 \
    --guard.rules.flow[1].resource='POST /orders' --guard.rules.flow[1].qps=2 \
    --logging.level.root=WARN --logging.level.org.springframework.boot.tomcat=INFO \
    "${shop_args[@]}" > "$log" 2>&1 &
  pid_of[$name]=$!
  pids+=("$!")
  local port=""
  for _ in $(seq 1 240); do # at most a minute
    port="$(grep -oP 'Tomcat started on port \K[0-9]+' "$log" || true)"
    [ -n "$port" ] && break
    kill -0 "${pid_of[$name]}" 2> /dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.25
  done
  [ -n "$port" ] || { echo "$name: no 'Tomcat started on port' in $log after a minute" >&2; exit 1; }
  port_of[$name]=$port
  echo "== $name: pid ${pid_of[$name]}, port $port, guard.web.enabled=$web"
}

cpu_ticks() { # user + system time of a process, in clock ticks
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# run NAME SECONDS: one wrk run; prints "requests non2xx ticks"
run() {
  local name="$1" seconds="$2" before after out
  before="$(cpu_ticks "${pid_of[$name]}")"
  out="$(wrk -t"$wrk_threads" -c"$connections" -d"${seconds}s" \
    "http://127.0.0.1:${port_of[$name]}$endpoint")"
  after="$(cpu_ticks "${pid_of[$name]}")"
  local requests non2xx
  requests="$(echo "$out" | grep -oP '^\s*\K[0-9]+(?= requests in)')"
  non2xx="$(echo "$out" | grep -oP 'Non-2xx or 3xx responses: \K[0-9]+' || echo 0)"
  echo "$requests $non2xx $((after - before))"
}

variants=()
declare -A cp_of
cp_of[this]="$(classpath "$root")"
if [ $# -ge 1 ]; then
  cp_of[other]="$(classpath "$(cd "$1" && pwd)")"
  for tree in other this; do
    start "$tree-on" "${cp_of[$tree]}" true
    start "$tree-off" "${cp_of[$tree]}" false
    variants+=("$tree-on" "$tree-off")
  done
else
  start "this-on" "${cp_of[this]}" true
  start "this-off" "${cp_of[this]}" false
  variants+=("this-on" "this-off")
fi

hz="$(getconf CLK_TCK)"
echo "== warm-up: ${warmup}s of load on each; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for v in "${variants[@]}"; do
  run "$v" "$warmup" > /dev/null
done

results="$work/results.txt"
for r in $(seq 1 "$rounds"); do
  echo "== round $r; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for v in "${variants[@]}"; do
    read -r requests non2xx ticks <<< "$(run "$v" "$duration")"
    us="$(awk -v t="$ticks" -v hz="$hz" -v n="$requests" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }')"
    printf '%-10s %8d requests (%d not 2xx)  %6.2f s CPU  %6s us/request\n' "$v" "$requests" \
      "$non2xx" "$(awk -v t="$ticks" -v hz="$hz" 'BEGIN { print t / hz }')" "$us"
    echo "$v $us $requests" >> "$results"
  done
done

echo "== paired: adapter on minus off, the two runs of one tree in the same round (us/request)"
for tree in this other; do
  grep -q "^$tree-on " "$results" || continue
  paste -d' ' <(grep "^$tree-on " "$results" | awk '{ print $2 }') \
    <(grep "^$tree-off " "$results" | awk '{ print $2 }') \
    | awk '{ printf "%.2f\n", $1 - $2 }' | sort -n | awk -v t="$tree" '
      { d[NR] = $1; all = all " " $1 }
      END {
        m = (NR % 2) ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
        printf "%-10s median %+.2f us/request (rounds, sorted:%s)\n", t, m, all
      }'
done
echo "== medians over $rounds rounds (server CPU per request; requests per ${duration}s run);" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for v in "${variants[@]}"; do
  grep "^$v " "$results" | awk '{ print $2, $3 }' | sort -n | awk -v v="$v" '
    { us[NR] = $1; n[NR] = $2 }
    END {
      m = (NR % 2) ? us[(NR + 1) / 2] : (us[NR / 2] + us[NR / 2 + 1]) / 2
      printf "%-10s median %.2f us/request (min %.2f, max %.2f)\n", v, m, us[1], us[NR]
    }'
done
