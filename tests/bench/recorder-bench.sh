#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The flight recorder's cost: 5 masters with keyspace notifications on, 5k lock changes per second,
# the monitoring process without and with the recorder in the same run (the order alternating per
# round); prints lockbench's JSON line (CPU of each, added CPU, backlog, bytes per event). Fails when
# the recorder adds more than --max-added-cpu-percent (default 10) or falls behind. --watch adds the
# live detection of two holders at once as `lockctl serve --record` runs it (issue #42): its thread's
# CPU, the suspects left to judge once the recorder committed everything, and how long they took.
#
#   tests/bench/recorder-bench.sh [--rate N] [--seconds S] [--rounds R] [--resources N] [--max-added-cpu-percent P] [--watch]
set -euo pipefail
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rate | --seconds | --rounds | --resources | --max-added-cpu-percent) extra+=("$1" "$2"); shift 2 ;;
    --watch) extra+=("$1"); shift ;;
    *) echo "usage: $0 [--rate N] [--seconds S] [--rounds R] [--resources N] [--max-added-cpu-percent P] [--watch]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/lib.sh"
start_servers 5 --notify-keyspace-events KA
"$lockbench" recorder "${masters[@]}" "${extra[@]}"
