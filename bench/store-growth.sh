#!/usr/bin/env bash
# How many bytes the embedded store's file grows per submit: starts the standalone jar on a fresh
# data directory, creates one queue, sends <n> submits one after another, and compares the file's
# size before and after. Usage: bench/store-growth.sh <standalone jar> [n > 0, default 500]
set -euo pipefail
jar=$1
n=${2:-500}
[ "$n" -gt 0 ] || { echo "n must be a positive number of submits" >&2; exit 2; }
dir=$(mktemp -d)
port=${PORT:-18080}
keep=false
stop() {
  pid=$(cat "$dir/pid" 2>/dev/null || true)
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  if [ "$keep" = true ]; then echo "log kept in $dir/standalone.log" >&2; else rm -rf "$dir"; fi
}
trap stop EXIT
TRAINYARD_DATA_DIR=$dir SERVER_PORT=$port TRAINYARD_RATE_LIMIT_PER_ORG=0 \
  java -jar "$jar" > "$dir/standalone.log" 2>&1 &
echo $! > "$dir/pid"
for _ in $(seq 1 120); do grep -q "API token" "$dir/standalone.log" && break; sleep 1; done
token=$(grep -m1 "API token" "$dir/standalone.log" | awk '{print $3}' || true)
if [ -z "$token" ]; then
  keep=true
  echo "the standalone did not start on port $port within 120 s (set PORT to use another)" >&2
  exit 1
fi
queue='"repo":{"host":"github.com","owner":"acme","name":"walk"},"targetBranch":"main"'
call() {
  curl -sSf -o /dev/null -H "x-api-token: $token" -H 'content-type: application/json' \
    -d "$2" "http://127.0.0.1:$port/v1/$1"
}
call createQueue "{$queue}"
file=$dir/mongo/trainyard.mv
before=$(stat -c %s "$file")
for i in $(seq 1 "$n"); do call submitPullRequest "{$queue,\"pr\":{\"number\":$i}}"; done
sleep 3
after=$(stat -c %s "$file")
echo "submits=$n file_before=$before file_after=$after bytes_per_submit=$(( (after - before) / n ))"
