#!/usr/bin/env bash
# Runs the lockbench benchmarks against redis-server processes of its own: each on a free loopback
# port, in a temporary directory, without persistence. Prints one JSON line per benchmark.
# The servers are always stopped (by pid) and the directory removed, also on failure or Ctrl-C.
#
#   tests/bench/run-benchmarks.sh [--build DIR | --lockbench PATH] [--runs N] [-- lockbench pipeline options]
#
# DIR is a build tree with the tests on (default: build); lockbench is built there if missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build"
lockbench=""
runs=1
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --lockbench) lockbench="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: $0 [--build DIR | --lockbench PATH] [--runs N] [-- lockbench options]" >&2; exit 2 ;;
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

workdir="$(mktemp -d "${TMPDIR:-/tmp}/lockscope-bench.XXXXXX")"
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

# A loopback port nobody listens on right now (bound by the kernel, then released); without
# python3 a random one, and start_server retries when it is taken.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' \
        2>/dev/null || echo $((20000 + RANDOM % 40000))
}

# Starts one more redis-server and appends its port to $ports; retries when the port was taken.
ports=()
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
            # Our process must still be alive after answering: the PONG may come from someone else's
            # server on a port that ours then failed to bind.
            if redis-cli -h 127.0.0.1 -p "$port" PING 2>/dev/null | grep -q PONG && sleep 0.1 &&
                kill -0 "$pid" 2>/dev/null; then
                ports+=("$port")
                return 0
            fi
            sleep 0.05
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    echo "run-benchmarks: redis-server did not start" >&2
    return 1
}

# Benchmarks that need several masters call start_server again and use "${ports[@]}".
start_server
for ((run = 0; run < runs; run++)); do
    "$lockbench" pipeline -m "redis://127.0.0.1:${ports[0]}" "${extra[@]}"
done
