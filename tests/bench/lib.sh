# SPDX-License-Identifier: Apache-2.0
# Shared by the benchmark scripts (source it): builds lockbench when missing, starts redis-servers of
# their own on free loopback ports in a temporary directory without persistence, and always stops
# them (by pid) and removes the directory when the script ends, also on failure or Ctrl-C.
#
# After sourcing: $root, $lockbench, $lockctl and need_lockctl, start_servers N [redis-server options...] (fills $urls and
# $masters, the latter as "-m URL" pairs for lockbench), median_json (see below).

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${LOCKSCOPE_BUILD:-$root/build}"
lockbench="$build/tests/bench/lockbench/lockbench"
# A build directory made by scripts/test.sh has the benchmarks switched off: on again (once).
if [[ -f "$build/CMakeCache.txt" ]] && grep -q '^LOCKSCOPE_BENCH:BOOL=OFF' "$build/CMakeCache.txt"; then
    cmake -S "$root" -B "$build" -DLOCKSCOPE_BENCH=ON >/dev/null
fi
# A script that needs only lockctl sets skip_lockbench=1 before sourcing (a build without benchmarks).
if [[ -z "${skip_lockbench:-}" && ! -x "$lockbench" ]]; then
    if [[ ! -f "$build/build.ninja" && ! -f "$build/Makefile" ]]; then
        cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    fi
    cmake --build "$build" --target lockbench >&2
fi

# $lockctl, built when missing (for the scripts that run lockctl itself).
lockctl="$build/app/lockctl"
need_lockctl() {
    [[ -x "$lockctl" ]] || cmake --build "$build" --target lockctl >&2
}

workdir="$(mktemp -d "${TMPDIR:-/tmp}/lockscope-bench.XXXXXX")"
# The programs measured keep their settings and state (the window's recording, the audit log) in the
# run's own directory: not in the user's, and not grown by earlier runs.
export XDG_CONFIG_HOME="$workdir/config" XDG_STATE_HOME="$workdir/state" XDG_DATA_HOME="$workdir/data"
pids=()
urls=()
masters=()
ports=()
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

# One redis-server; retries when another process took the port first.
start_server() {
    local attempt dir pid port
    for attempt in 1 2 3 4 5; do
        port="$(free_port)"
        dir="$workdir/redis-$port"
        mkdir -p "$dir"
        redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" \
            --daemonize no --protected-mode no --logfile "$dir/redis.log" "$@" &
        pid=$!
        pids+=("$pid")
        for _ in $(seq 100); do
            kill -0 "$pid" 2>/dev/null || break
            # Our process must still be alive after answering: the PONG may come from someone else's
            # server on a port that ours then failed to bind.
            if redis-cli -h 127.0.0.1 -p "$port" PING 2>/dev/null | grep -q PONG && sleep 0.1 &&
                kill -0 "$pid" 2>/dev/null; then
                urls+=("redis://127.0.0.1:$port")
                masters+=(-m "redis://127.0.0.1:$port")
                ports+=("$port")
                return 0
            fi
            sleep 0.05
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    echo "benchmark: redis-server did not start" >&2
    return 1
}

start_servers() {
    local count="$1"
    shift
    for ((i = 0; i < count; i++)); do
        start_server "$@"
    done
}

# wait_rehashed PORT...: until each server's keyspace is done growing its hash table (at most a
# minute). Keys written past a table's size start an incremental rehash that runs on for seconds
# (about a millisecond of every 100 ms cron tick, and a step with each command): a SCAN meanwhile
# walks both tables. Measured while it lasts, the side that runs first pays for it.
wait_rehashed() {
    local port deadline=$((SECONDS + 60))
    for port in "$@"; do
        while redis-cli -h 127.0.0.1 -p "$port" DEBUG HTSTATS 0 | grep -q "rehashing target"; do
            ((SECONDS < deadline)) || { echo "bench: the keyspace of :$port is still rehashing" >&2; return 1; }
            sleep 0.2
        done
    done
}

# pipe_locks PORT COUNT PREFIX TTL_MS: COUNT locks `SET <PREFIX>I <I as 32 hex digits> PX TTL_MS`
# (I from 0), written through redis-cli --pipe.
pipe_locks() {
    awk -v n="$2" -v prefix="$3" -v ttl="$4" 'BEGIN {
        for (i = 0; i < n; i++) {
            key = prefix i
            printf "*5\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$32\r\n%032x\r\n$2\r\nPX\r\n$%d\r\n%s\r\n", length(key), key, i, length(ttl), ttl
        }
    }' | redis-cli -h 127.0.0.1 -p "$1" --pipe >/dev/null
}

# median_json KEY... < lines: one JSON object with the median of each numeric KEY over the input
# lines, plus the other fields of the first line.
median_json() {
    python3 -c '
import json, statistics, sys
keys = sys.argv[1:]
runs = [json.loads(l) for l in sys.stdin if l.strip()]
out = dict(runs[0])
for k in keys:
    out[k] = statistics.median(r[k] for r in runs)
out["runs"] = len(runs)
print(json.dumps(out))' "$@"
}

# start_postgres: a PostgreSQL 15 cluster of the run's own (Debian's postgresql-15) in $workdir, on a
# free loopback port, password (SCRAM) logins only, its default durability (fsync and synchronous
# commits on: what a team's server does). Run as `postgres` when we are root (PostgreSQL refuses
# root). Sets $pg_url (postgresql://lockscope_bench@127.0.0.1:PORT/bench) and exports PGPASSWORD,
# which libpq reads; stopped by its pid (postmaster.pid) with the rest.
start_postgres() {
    local bin=/usr/lib/postgresql/15/bin dir="$workdir/pg" as=() pid
    if [[ ! -x "$bin/initdb" ]]; then
        echo "benchmark: PostgreSQL 15 is not installed (Debian package postgresql-15)" >&2
        return 1
    fi
    mkdir -p "$dir"
    if [[ "$(id -u)" == 0 ]]; then
        chmod 711 "$workdir" # postgres may pass through to its own directory, not list ours
        chown postgres: "$dir"
        as=(runuser -u postgres --)
    fi
    PGPASSWORD="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    export PGPASSWORD
    (umask 077 && printf '%s\n' "$PGPASSWORD" >"$dir/pw")
    [[ ${#as[@]} -eq 0 ]] || chown postgres: "$dir/pw"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U lockscope_bench --pwfile="$dir/pw" --auth=scram-sha-256 \
        -E UTF8 --no-instructions >/dev/null
    rm -f "$dir/pw"
    pg_port="$(free_port)"
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -s \
        -o "-h 127.0.0.1 -p $pg_port -k $dir" start
    pid="$(head -n 1 "$dir/data/postmaster.pid")"
    pids+=("$pid")
    "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U lockscope_bench bench
    pg_url="postgresql://lockscope_bench@127.0.0.1:$pg_port/bench"
}
