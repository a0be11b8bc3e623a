#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The core's memory per lock (issue #19, parts 2 and 3): MASTERS masters holding LOCKS locks
# (`SET lock:mN <32 hex> PX 3600000`, on every master, through redis-cli --pipe), then
# `lockctl watch --json` and `lockctl serve` (one scrape of /metrics included) each run until their
# first full discovery is in (watch: every lock printed as added; serve: /-/ready answers 200) and
# CHURN_SECONDS of reconciliation on top (a fifth of the locks given a new TTL each second, through
# real writes; polling mode, so a pass every 2 s reads them). Peak RSS is VmHWM from /proc/PID/status.
# Prints one JSON line:
#   {"locks":…,"masters":…,"watchPeakMiB":…,"watchBytesPerLock":…,"servePeakMiB":…,
#    "serveBytesPerLock":…,"baselineMiB":…,"budgetMiB":…,"met":true|false}
# bytes per lock = (peak - baseline) / locks, the baseline being `lockctl watch` on an empty server.
# The budget: 1.2 GiB for 1M locks (the window's, which watch and serve share), scaled by the locks.
#
#   tests/bench/monitor-mem-bench.sh [LOCKS] [MASTERS] [CHURN_SECONDS]
#       (defaults 1000000 1 4; LOCKSCOPE_BUILD=DIR, default build/)
# The ui-bench shape (the core's share of it): tests/bench/monitor-mem-bench.sh 100000 5
set -euo pipefail
locks="${1:-1000000}"
master_count="${2:-1}"
churn_seconds="${3:-4}"
skip_lockbench=1
source "$(dirname "$0")/lib.sh"
need_lockctl
# The empty server of the baseline first, then the masters measured: only those get locks and churn,
# and only those are watched. (Started after them and dropped from $urls alone, it stayed in $masters
# and $ports: every lock was written to it too, and "1 master" measured two, each holding every lock.)
start_server
empty_url="${urls[0]}"
urls=() masters=() ports=()
start_servers "$master_count"

for port in "${ports[@]}"; do
    pipe_locks "$port" "$locks" lock:m 3600000
done

hwm_kib() {
    awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"
}

# Stops a lockctl of ours (by pid) and waits for it.
stop() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# TTL writes to a fifth of the locks per second, for CHURN_SECONDS.
churn() {
    local s port
    for ((s = 0; s < churn_seconds; s++)); do
        local started=$SECONDS
        for port in "${ports[@]}"; do
            awk -v n="$locks" -v s="$s" 'BEGIN {
                for (i = s % 5; i < n; i += 5) {
                    key = "lock:m" i
                    ttl = 3000000 + s * 1000 + (i % 997)
                    printf "*3\r\n$7\r\nPEXPIRE\r\n$%d\r\n%s\r\n$%d\r\n%d\r\n", length(key), key, length(ttl ""), ttl
                }
            }' | redis-cli -h 127.0.0.1 -p "$port" --pipe >/dev/null
        done
        while ((SECONDS - started < 1)); do sleep 0.1; done
    done
}

limit_s="${MEMBENCH_LIMIT_S:-1800}"

# Polls until "$@" succeeds while lockctl PID runs; stops it and fails after MEMBENCH_LIMIT_S.
wait_until() {
    local pid="$1" what="$2" waited=0
    shift 2
    until "$@"; do
        sleep 0.5
        waited=$((waited + 1))
        if ((waited > 2 * limit_s)) || ! kill -0 "$pid" 2>/dev/null; then
            echo "monitor-mem-bench: $what" >&2
            stop "$pid"
            return 1
        fi
    done
}

# serve printed where it listens ($url) and says it is ready: its first discovery is in.
serve_ready() {
    url="$(sed -n 's/^serving \(http[^ ]*\)$/\1/p' "$1")"
    [[ -n "$url" ]] && curl -sf -o /dev/null "${url%/metrics}/-/ready"
}

# lockctl watch: the JSON lines go to a counter, which says when every lock was added.
watch_peak() {
    local out="$workdir/watch-done"
    : >"$out"
    # Python, not awk: mawk reads a pipe in large blocks and would see the last lines only at exit.
    "$lockctl" watch --json "$@" --pattern 'lock:*' > >(python3 -c '
import sys
n, out, c = int(sys.argv[1]), sys.argv[2], 0
for line in sys.stdin:
    c += "\"event\":\"added\"" in line
    if (n and c == n) or (not n and "\"state\":\"mode " in line):
        open(out, "w").write("done")
' "$locks" "$out") &
    local pid=$!
    wait_until "$pid" "watch did not show $locks locks" test -s "$out" || return 1
    churn
    hwm_kib "$pid"
    stop "$pid"
}

serve_peak() {
    local log="$workdir/serve.log"
    "$lockctl" serve --listen 127.0.0.1:0 "${masters[@]}" --pattern 'lock:*' >"$log" 2>&1 &
    local pid=$!
    url=""
    wait_until "$pid" "serve was not ready" serve_ready "$log" || return 1
    churn
    curl -sf -o /dev/null "$url"
    hwm_kib "$pid"
    stop "$pid"
}

# What a lockctl costs before any lock (Qt, the connections, the threads).
base_kib="$(locks=0 churn_seconds=0 watch_peak -m "$empty_url")"
watch_kib="$(watch_peak "${masters[@]}")"
serve_kib="$(serve_peak)"

python3 - "$locks" "$master_count" "$base_kib" "$watch_kib" "$serve_kib" "$churn_seconds" <<'EOF'
import json, sys
locks, masters, base, watch, serve, churn = (int(a) for a in sys.argv[1:])
budget_mib = 1.2 * 1024 * locks / 1_000_000
per = lambda kib: round((kib - base) * 1024 / max(1, locks))
print(json.dumps({
    "locks": locks, "masters": masters, "churnSeconds": churn,
    "watchPeakMiB": round(watch / 1024, 1), "watchBytesPerLock": per(watch),
    "servePeakMiB": round(serve / 1024, 1), "serveBytesPerLock": per(serve),
    "baselineMiB": round(base / 1024, 1), "budgetMiB": round(budget_mib, 1),
    "met": watch / 1024 <= budget_mib and serve / 1024 <= budget_mib,
}))
EOF
