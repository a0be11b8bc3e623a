#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `lockctl serve`'s live figures cost (issue #44: at most 5 % of the monitoring process's CPU
# at the recorder benchmark's load): 5 masters with keyspace notifications on, 5k lock changes per
# second, a monitor reading every change as serve does, without and with the figures (LockActivity:
# counters, ages, the families' hold times, endings and headroom, and a scrape a second), the order
# alternating per round. Prints lockbench's JSON line; fails when the figures' own CPU passes
# --max-added-cpu-percent of the baseline's.
#
#   tests/bench/figures-bench.sh [--rate N] [--seconds S] [--rounds R] [--resources N] [--max-added-cpu-percent P]
set -euo pipefail
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rate | --seconds | --rounds | --resources | --max-added-cpu-percent) extra+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 [--rate N] [--seconds S] [--rounds R] [--resources N] [--max-added-cpu-percent P]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/lib.sh"
start_servers 5 --notify-keyspace-events KA
"$lockbench" figures "${masters[@]}" "${extra[@]}"
