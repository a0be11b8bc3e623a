#!/usr/bin/env bash
# Full discovery through the core against the bare hiredis loop the issue compares with (SCAN COUNT
# 1000 + pipelined GET/PTTL, one thread per master), on 5 masters of 200k keys with 20k locks each,
# alternating for --rounds rounds; then the same discovery on 1M keys per master (same 20k locks),
# to show memory follows the locks, not the keyspace. Prints the medians and
#   {"scanRatio": ours/baseline seconds, "rssRatio1Mvs200k": peak RSS at 1M keys / at 200k keys}
#
#   tests/bench/scan-bench.sh [--rounds R] [--keys N] [--locks L]
set -euo pipefail
rounds=3
keys=200000
locks=20000
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --keys) keys="$2"; shift 2 ;;
    --locks) locks="$2"; shift 2 ;;
    *) echo "usage: $0 [--rounds R] [--keys N] [--locks L]" >&2; exit 2 ;;
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

fill "$keys"
baseline=()
ours=()
for ((round = 0; round < rounds; round++)); do
    baseline+=("$("$lockbench" scan-baseline "${masters[@]}" --pattern 'lock:*')")
    ours+=("$("$lockbench" scan "${masters[@]}" --pattern 'lock:*')")
done
a="$(printf '%s\n' "${ours[@]}" | median_json seconds peakRssMiB)"
b="$(printf '%s\n' "${baseline[@]}" | median_json seconds)"
fill 1000000
big="$("$lockbench" scan "${masters[@]}" --pattern 'lock:*')"
echo "$a"
echo "$b"
echo "$big" | python3 -c 'import json,sys; d=json.load(sys.stdin); d["keysPerMaster"]=1000000; print(json.dumps(d))'
python3 - "$a" "$b" "$big" <<'PY'
import json, sys
a, b, big = (json.loads(x) for x in sys.argv[1:])
print(json.dumps({"scanRatio": a["seconds"] / b["seconds"], "rssRatio1Mvs200k": big["peakRssMiB"] / a["peakRssMiB"]}))
PY
