#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# LockScope's Redlock against node-redlock and against the floor (a bare hiredis Redlock,
# `lockbench acquire-baseline`: pipelined SET NX PX to every master, the same release script), side by
# side in one run on the same 5 masters. Prints the median JSON line of each (ours, node-redlock, the
# floor), and
#   {"throughputRatio": ours/theirs pairs per second, "p50Ratio": ours/theirs acquire p50,
#    "floorThroughputRatio": ours/floor pairs per second, "floorP50Ratio": ours/floor acquire p50}
# (issue #47's targets: floorThroughputRatio at least 0.9, floorP50Ratio at most 1.0).
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
floor=()
# The order of the three turns every round: none always meets the masters fresh.
run_one() {
    case "$1" in
    ours) ours+=("$("$lockbench" acquire "${masters[@]}" "${options[@]}")") ;;
    theirs) theirs+=("$(node "$root/tests/bench/node-redlock-bench.js" "${masters[@]}" "${options[@]}")") ;;
    floor) floor+=("$("$lockbench" acquire-baseline "${masters[@]}" "${options[@]}")") ;;
    esac
}
sides=(ours theirs floor)
for ((round = 0; round < rounds; round++)); do
    for ((i = 0; i < 3; i++)); do
        run_one "${sides[(round + i) % 3]}"
    done
done
a="$(printf '%s\n' "${ours[@]}" | median_json pairsPerSec acquireP50Ms acquireP99Ms)"
b="$(printf '%s\n' "${theirs[@]}" | median_json pairsPerSec acquireP50Ms acquireP99Ms)"
f="$(printf '%s\n' "${floor[@]}" | median_json pairsPerSec acquireP50Ms acquireP99Ms)"
echo "$a"
echo "$b"
echo "$f"
python3 - "$a" "$b" "$f" <<'PY'
import json, sys
a, b, f = (json.loads(x) for x in sys.argv[1:])
print(json.dumps({"throughputRatio": a["pairsPerSec"] / b["pairsPerSec"],
                  "p50Ratio": a["acquireP50Ms"] / b["acquireP50Ms"],
                  "floorThroughputRatio": a["pairsPerSec"] / f["pairsPerSec"],
                  "floorP50Ratio": a["acquireP50Ms"] / f["acquireP50Ms"]}))
PY
