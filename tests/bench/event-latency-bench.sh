#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Event-to-view latency: 5 masters with keyspace notifications on, 5k lock changes per second for
# --seconds seconds; prints lockbench's JSON line (p50/p99/max ms from SET to the monitor's view, and
# the changes that never reached it). A run where more than --max-missed-percent (default 0.1) of the
# changes never reached the view within --drain-ms (default 5000) after the writer stopped fails the
# benchmark; a change that arrives late counts at its real latency.
#
#   tests/bench/event-latency-bench.sh [--rate N] [--seconds S] [--runs R] [--drain-ms MS] [--max-missed-percent P]
set -euo pipefail
rate=5000
seconds=5
runs=1
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --drain-ms | --max-missed-percent) extra+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 [--rate N] [--seconds S] [--runs R] [--drain-ms MS] [--max-missed-percent P]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/lib.sh"
start_servers 5 --notify-keyspace-events KA
for ((run = 0; run < runs; run++)); do
    "$lockbench" event-latency "${masters[@]}" --rate "$rate" --seconds "$seconds" "${extra[@]}"
done
