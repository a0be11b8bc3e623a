#!/usr/bin/env bash
# LockScope's Redlock against node-redlock, side by side in one run on the same 5 masters:
# redis-servers on free loopback ports, in a temporary directory, without persistence, always
# stopped (by pid) when this script ends. Prints lockbench's JSON line, node-redlock's, and
#   {"throughputRatio": ours/theirs pairs per second, "p50Ratio": ours/theirs acquire p50}
#
#   tests/bench/acquire-bench.sh [--build DIR | --lockbench PATH] [--count N] [--concurrency C]
#                                [--sequential S] [--rounds R]
#
# With --rounds R > 1 both run R times, alternating, and the medians are compared: on a shared
# machine one unlucky second can halve either figure.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build"
lockbench=""
count=20000
concurrency=64
sequential=3000
rounds=1
while [[ $# -gt 0 ]]; do
    case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --lockbench) lockbench="$2"; shift 2 ;;
    --count) count="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --sequential) sequential="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "usage: $0 [--build DIR | --lockbench PATH] [--count N] [--concurrency C] [--sequential S] [--rounds R]" >&2
       exit 2 ;;
    esac
done

if [[ -z "$lockbench" ]]; then
    lockbench="$build/tests/bench/lockbench/lockbench"
fi
if [[ ! -x "$lockbench" ]]; then
    if [[ ! -f "$build/build.ninja" && ! -f "$build/Makefile" ]]; then
        cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCKSCOPE_GUI=OFF >/dev/null
    fi
    cmake --build "$build" --target lockbench >&2
fi
if [[ ! -d "$root/tests/interop/node_modules/redlock" ]]; then
    (cd "$root/tests/interop" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi

workdir="$(mktemp -d "${TMPDIR:-/tmp}/lockscope-acquire-bench.XXXXXX")"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Starts a redis-server and appends its URL to $urls; retries when another process took the port first.
urls=()
start_server() {
    local attempt dir pid port
    for attempt in 1 2 3 4 5; do
        port="$(free_port)"
        dir="$workdir/redis-$port"
        mkdir -p "$dir"
        redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" \
            --daemonize no --protected-mode no --logfile "$dir/redis.log" &
        pid=$!
        pids+=("$pid")
        for _ in $(seq 100); do
            if ! kill -0 "$pid" 2>/dev/null; then
                break
            fi
            if redis-cli -h 127.0.0.1 -p "$port" PING 2>/dev/null | grep -q PONG; then
                urls+=("redis://127.0.0.1:$port")
                return 0
            fi
            sleep 0.05
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    echo "acquire-bench: redis-server did not start" >&2
    return 1
}

for _ in 1 2 3 4 5; do
    start_server
done
masters=()
for url in "${urls[@]}"; do
    masters+=(-m "$url")
done
options=(--count "$count" --concurrency "$concurrency" --sequential "$sequential")

ours=()
theirs=()
for ((round = 0; round < rounds; round++)); do
    ours+=("$("$lockbench" acquire "${masters[@]}" "${options[@]}")")
    theirs+=("$(node "$root/tests/bench/node-redlock-bench.js" "${masters[@]}" "${options[@]}")")
done

python3 - "${#ours[@]}" "${ours[@]}" "${theirs[@]}" <<'PY'
import json, statistics, sys
n = int(sys.argv[1])
ours = [json.loads(line) for line in sys.argv[2:2 + n]]
theirs = [json.loads(line) for line in sys.argv[2 + n:]]
def median(runs):
    return {k: statistics.median(r[k] for r in runs) for k in ("pairsPerSec", "acquireP50Ms", "acquireP99Ms")}
a, b = median(ours), median(theirs)
print(json.dumps(dict(implementation="lockscope", **a)))
print(json.dumps(dict(implementation="node-redlock", **b)))
print(json.dumps({"throughputRatio": a["pairsPerSec"] / b["pairsPerSec"],
                  "p50Ratio": a["acquireP50Ms"] / b["acquireP50Ms"]}))
PY
