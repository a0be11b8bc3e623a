#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# LockScope's Redlock against node-redlock, side by side in one run on the same 5 masters.
# Prints the median JSON line of each, and
#   {"throughputRatio": ours/theirs pairs per second, "p50Ratio": ours/theirs acquire p50}
#
#   tests/bench/acquire-bench.sh [--count N] [--concurrency C] [--sequential S] [--rounds R]
#
# With --rounds R > 1 both run R times, alternating (and alternating which goes first), and the medians are compared: on a shared
# machine one unlucky second can halve either figure.
set -euo pipefail
count=20000
concurrency=64
sequential=3000
rounds=3
source "$(dirname "$0")/options.sh"
parse_options "[--count N] [--concurrency C] [--sequential S] [--rounds R]" count concurrency sequential rounds -- "$@"
source "$(dirname "$0")/lib.sh"
if [[ ! -d "$root/tests/interop/node_modules/redlock" ]]; then
    # No pinned package needs an install script (scripts/test.sh): none may run one.
    (cd "$root/tests/interop" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
fi
start_servers 5
options=(--count "$count" --concurrency "$concurrency" --sequential "$sequential")
ours=()
theirs=()
# Which side goes first alternates every round: neither always meets the masters fresh.
for ((round = 0; round < rounds; round++)); do
    if ((round % 2 == 0)); then
        ours+=("$("$lockbench" acquire "${masters[@]}" "${options[@]}")")
        theirs+=("$(node "$root/tests/bench/node-redlock-bench.js" "${masters[@]}" "${options[@]}")")
    else
        theirs+=("$(node "$root/tests/bench/node-redlock-bench.js" "${masters[@]}" "${options[@]}")")
        ours+=("$("$lockbench" acquire "${masters[@]}" "${options[@]}")")
    fi
done
a="$(printf '%s\n' "${ours[@]}" | median_json pairsPerSec acquireP50Ms acquireP99Ms)"
b="$(printf '%s\n' "${theirs[@]}" | median_json pairsPerSec acquireP50Ms acquireP99Ms)"
echo "$a"
echo "$b"
python3 - "$a" "$b" <<'PY'
import json, sys
a, b = (json.loads(x) for x in sys.argv[1:])
print(json.dumps({"throughputRatio": a["pairsPerSec"] / b["pairsPerSec"],
                  "p50Ratio": a["acquireP50Ms"] / b["acquireP50Ms"]}))
PY
