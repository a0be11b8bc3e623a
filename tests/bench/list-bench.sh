#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockctl list --json` over many short-lived per-entity locks (issue #19 part 3) against the bare
# hiredis loop the issue compares with (lockbench scan-baseline: SCAN COUNT 1000 + pipelined GET/PTTL),
# both in this run, on M masters each holding L `SET lock:mN <32 hex> PX ...` keys (Redlock over M
# when M > 1: every lock on every master).
#   1. bare loop, then `lockctl list --json > /dev/null`: seconds and peak RSS (/usr/bin/time %M);
#   2. an untimed run whose output is counted: the JSON must hold exactly L locks;
#   3. with --pattern '*' over L ordinary keys (DEBUG POPULATE) plus the locks: every key is listed
#      (2L), timed against the bare loop with MATCH '*';
#   4. lockctl with the default --scan-rate (when lockctl has the option), timed for the record.
# Prints one JSON line; exits non-zero unless lockctl took at most 2x the bare loop's time (one
# master; with more masters the figure is reported, the bare loop reads each master in a thread of
# its own) and its peak RSS stayed at most 300 MiB.
#
#   tests/bench/list-bench.sh [--locks L] [--masters M]
set -euo pipefail
locks=1000000
nmasters=1
source "$(dirname "$0")/options.sh"
parse_options "[--locks L] [--masters M]" locks masters=nmasters -- "$@"
source "$(dirname "$0")/lib.sh"
need_lockctl
start_servers "$nmasters" --enable-debug-command yes

fill_locks() {
    local port
    for port in "${ports[@]}"; do
        pipe_locks "$port" "$locks" lock:m 86400000
    done
}

# Faster scans than the default pace, where lockctl has the choice (--scan-rate).
rate_args=()
# (The help read whole first: `| grep -q` under pipefail fails when grep stops reading early.)
help="$("$lockctl" list --help 2>/dev/null || true)"
if grep -q -- '--scan-rate' <<<"$help"; then
    rate_args=(--scan-rate max)
fi

# timed_list OUT ARGS...: runs lockctl --json ARGS with its output thrown away; writes
# "seconds peakKiB" to OUT.
timed_list() {
    local out="$1" start end status=0
    shift
    start=$(date +%s.%N)
    /usr/bin/time -f %M -o "$workdir/rss" "$lockctl" "${masters[@]}" --json "$@" >/dev/null 2>"$workdir/err" ||
        status=$?
    end=$(date +%s.%N)
    if [[ $status -ne 0 ]]; then
        echo "list-bench: lockctl $* failed (exit $status): $(head -c 2000 "$workdir/err")" >&2
        exit 1
    fi
    echo "$(python3 -c "print($end - $start)") $(tail -1 "$workdir/rss")" >"$out"
}

# count_list ARGS...: how many locks `lockctl --json ARGS` printed, read as it streams (the output
# is never held whole), and whether the document was closed with its masters.
count_list() {
    "$lockctl" "${masters[@]}" --json "$@" 2>/dev/null | python3 -c '
import sys
needle = b"\"resource\":"
count, tail, last = 0, b"", b""
while True:
    chunk = sys.stdin.buffer.read(1 << 20)
    if not chunk:
        break
    data = tail + chunk
    count += data.count(needle)
    tail = data[-(len(needle) - 1):]
    last = (last + chunk)[-4096:]
print(count, int(b"],\"masters\":[" in last and last.rstrip().endswith(b"]}")))'
}

bare() {
    local out status=0
    out="$("$lockbench" scan-baseline "${masters[@]}" --pattern "$1")" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "list-bench: bare loop failed (exit $status): $out" >&2
        exit 1
    fi
    echo "$out"
}

fill_locks
base_locks="$(bare '*lock*')"
timed_list "$workdir/list" "${rate_args[@]}" list
read -r counted closed < <(count_list "${rate_args[@]}" list)
default_seconds=null
if [[ ${#rate_args[@]} -gt 0 ]]; then
    timed_list "$workdir/default" list
    default_seconds="$(cut -d' ' -f1 "$workdir/default")"
fi

for port in "${ports[@]}"; do
    redis-cli -h 127.0.0.1 -p "$port" DEBUG POPULATE "$locks" key 16 >/dev/null
done
base_star="$(bare '*')"
timed_list "$workdir/star" "${rate_args[@]}" list --pattern '*'
read -r counted_star closed_star < <(count_list "${rate_args[@]}" list --pattern '*')

python3 - "$locks" "$nmasters" "$base_locks" "$(cat "$workdir/list")" "$counted" "$closed" \
    "$base_star" "$(cat "$workdir/star")" "$counted_star" "$closed_star" "$default_seconds" \
    "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import json, sys
(locks, masters, base, listed, counted, closed, base_star, star, counted_star, closed_star, default_s,
 load) = sys.argv[1:]
locks, masters = int(locks), int(masters)
base, base_star = json.loads(base), json.loads(base_star)
ls, lk = (float(x) for x in listed.split())
ss, sk = (float(x) for x in star.split())
out = {
    "bench": "list", "locks": locks, "masters": masters, "loadAverage": float(load),
    "bareSeconds": round(base["seconds"], 3), "listSeconds": round(ls, 3),
    "ratio": round(ls / base["seconds"], 2), "peakRssMiB": round(lk / 1024, 1),
    "bytesPerLock": round(lk * 1024 / locks), "locksListed": int(counted), "jsonClosed": closed == "1",
    "star": {"keys": 2 * locks, "bareSeconds": round(base_star["seconds"], 3), "listSeconds": round(ss, 3),
             "ratio": round(ss / base_star["seconds"], 2), "peakRssMiB": round(sk / 1024, 1),
             "keysListed": int(counted_star), "jsonClosed": closed_star == "1"},
    "defaultRateSeconds": None if default_s == "null" else round(float(default_s), 3),
}
targets = {
    "complete": out["locksListed"] == locks and out["jsonClosed"] and out["star"]["keysListed"] == 2 * locks
                and out["star"]["jsonClosed"],
    "rssAtMost300MiB": out["peakRssMiB"] <= 300 and out["star"]["peakRssMiB"] <= 300,
}
if masters == 1:
    targets["atMost2xBare"] = out["ratio"] <= 2 and out["star"]["ratio"] <= 2
out["targets"] = targets
out["ok"] = all(targets.values())
print(json.dumps(out))
sys.exit(0 if out["ok"] else 1)
PY
