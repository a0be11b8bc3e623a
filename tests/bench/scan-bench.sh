#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Full discovery through the core against the bare hiredis loop the issue compares with (SCAN COUNT
# 1000 + pipelined GET/PTTL, one thread per master), on 5 masters of 200k keys with 20k locks each,
# for --rounds rounds, the order of the two swapped every round (neither always gets the warm caches);
# then the same discovery on 1M keys per master (same 20k locks), to show memory follows the locks,
# not the keyspace. Prints the medians and
#   {"scanRatio": ours/baseline seconds, "rssRatio1Mvs200k": peak RSS at 1M keys / at 200k keys}
# Every run must report exactly what was written (L lock keys on each master, L distinct locks) and
# no error, or the benchmark fails: a side that scanned less, or could not connect, is not faster.
# Discovery runs at --scan-rate max unless told otherwise: the bar of issues #3 and #19 is the full
# speed pass against the bare loop (the default, polite pace is impact-bench's subject).
# Both sides scan `lock:*` (one pattern: the server matches it). With --default-patterns ours scans
# LockScope's default patterns instead (lock:*, mutex:*, *lock* to discover and the rest: one SCAN whose
# MATCH covers them all, *[cm]*[kpx]*, and whose keys LockScope matches itself, as the window does
# out of the box) and the bare loop *lock*.
#
#   tests/bench/scan-bench.sh [--rounds R] [--keys N] [--locks L] [--big-keys N] [--scan-rate RATE]
#                             [--default-patterns]
set -euo pipefail
rounds=3
keys=200000
locks=20000
big_keys=1000000
scan_rate=max
default_patterns=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --keys) keys="$2"; shift 2 ;;
    --locks) locks="$2"; shift 2 ;;
    --big-keys) big_keys="$2"; shift 2 ;;
    --scan-rate) scan_rate="$2"; shift 2 ;;
    --default-patterns) default_patterns=1; shift ;;
    *) echo "usage: $0 [--rounds R] [--keys N] [--locks L] [--big-keys N] [--scan-rate RATE] [--default-patterns]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/lib.sh"
start_servers 5 --enable-debug-command yes

fill() {
    local url port
    for url in "${urls[@]}"; do
        port="${url##*:}"
        redis-cli -p "$port" FLUSHALL >/dev/null
        redis-cli -p "$port" DEBUG POPULATE "$(($1 - locks))" filler >/dev/null
        redis-cli -p "$port" EVAL "for i=1,$locks do redis.call('SET','lock:'..i,'tok'..i,'PX',600000) end" 0 >/dev/null
    done
}

# check_counts JSON: the run found every lock key on every master and every lock, and no error.
check_counts() {
    python3 - "$1" "$locks" "${#urls[@]}" <<'PY'
import json, sys
run, locks, masters = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
problems = []
if "error" in run:
    problems.append(run["error"])
if run.get("keysScanned") != locks * masters:
    problems.append(f"{run.get('keysScanned')} keys scanned, {locks * masters} written")
if run.get("locks") != locks:
    problems.append(f"{run.get('locks')} locks reported, {locks} written")
if problems:
    sys.exit(f"scan-bench: {run.get('bench')} is no result: " + "; ".join(problems))
PY
}

# One run of a side; a run that fails or reports the wrong counts fails the benchmark.
run_side() {
    local out status=0 rate=() pattern=(--pattern 'lock:*')
    [[ "$1" == scan ]] && rate=(--scan-rate "$scan_rate")
    if [[ -n "$default_patterns" ]]; then
        pattern=(--pattern '*lock*')
        [[ "$1" == scan ]] && pattern=()
    fi
    out="$("$lockbench" "$1" "${masters[@]}" "${pattern[@]}" "${rate[@]}")" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "scan-bench: $1 failed (exit $status): $out" >&2
        exit 1
    fi
    check_counts "$out" || exit 1
    echo "$out"
}

fill "$keys"
baseline=()
ours=()
for ((round = 0; round < rounds; round++)); do
    if ((round % 2 == 0)); then
        ours+=("$(run_side scan)")
        baseline+=("$(run_side scan-baseline)")
    else
        baseline+=("$(run_side scan-baseline)")
        ours+=("$(run_side scan)")
    fi
done
a="$(printf '%s\n' "${ours[@]}" | median_json seconds peakRssMiB)"
b="$(printf '%s\n' "${baseline[@]}" | median_json seconds)"
fill "$big_keys"
big="$(run_side scan)"
echo "$a"
echo "$b"
echo "$big" | python3 -c 'import json,sys; d=json.load(sys.stdin); d["keysPerMaster"]=int(sys.argv[1]); print(json.dumps(d))' "$big_keys"
python3 - "$a" "$b" "$big" <<'PY'
import json, sys
a, b, big = (json.loads(x) for x in sys.argv[1:])
print(json.dumps({"scanRatio": a["seconds"] / b["seconds"], "rssRatio1Mvs200k": big["peakRssMiB"] / a["peakRssMiB"]}))
PY
