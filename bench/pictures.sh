#!/usr/bin/env bash
# Draws the pictures in docs/ from the current build:
#
#   docs/dashboard.png      a resource page of the dashboard after five minutes of shop traffic
#   docs/fleet.png          the dashboard's fleet page of three instances on one redis-server
#   docs/adaptive-limit.png the adaptive concurrency limit over time, next to concurrency-limits'
#
#   bench/pictures.sh                        traffic dated from the current minute (UTC)
#   bench/pictures.sh 2026-12-07T14:00:00Z   traffic dated from the given time, for the same picture
#
# Needs Chromium, its driver and redis-server from the system packages (as the dashboard's browser
# tests do): apt-get install chromium chromium-driver redis-server. The traffic runs on a manual
# clock (guard-dashboard's DocsPictures, guard-testkit-traffic's AdaptiveChart), so the figures are the
# same on every run; only the dates follow the start time. Look at the pictures before committing
# them.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

start="${1:-$(date -u +%Y-%m-%dT%H:%M:00Z)}"
for tool in /usr/bin/chromium /usr/bin/chromedriver redis-server; do
  if ! command -v "$tool" > /dev/null; then
    echo "bench/pictures.sh needs $tool: apt-get install chromium chromium-driver redis-server" >&2
    exit 1
  fi
done

echo "== drawing docs/*.png from this build, traffic from $start"
mvn -q -B -pl guard-testkit-traffic,guard-dashboard -am test-compile exec:exec@pictures \
  -Dexec.executable=java -Dpictures.dir="$root/docs" -Dpictures.start="$start"
ls -l docs/*.png
