#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The window's Insights view over a recording of a million locks (issue #44: it stays responsive,
# its figures computed off the GUI thread): the synthetic recording of stats-bench.sh, but with
# --resources locks (a million by default), reviewed by the real window (offscreen); the Insights
# dock is shown and uibench measures the GUI thread's stalls until the figures are drawn. Prints
# uibench's JSON line (figuresMs, maxStallMs, p99StallMs, peakRssMiB); fails when the longest
# stall passes --max-stall-ms or no family was found.
#
#   tests/bench/insights-bench.sh [--events N] [--resources R] [--max-stall-ms MS]
set -euo pipefail
events=8000000
resources=1000000
max_stall_ms=50
source "$(dirname "$0")/options.sh"
parse_options "[--events N] [--resources R] [--max-stall-ms MS]" \
    events resources max-stall-ms=max_stall_ms -- "$@"
source "$(dirname "$0")/lib.sh"
uibench="$build/tests/bench/uibench/uibench"
if [[ ! -x "$uibench" ]]; then
    cmake --build "$build" --target uibench >&2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/recording.sqlite"
"$lockbench" synth-recording --out "$db" --events "$events" --resources "$resources" --planted 0 >&2
sync "$db"
XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=offscreen \
    "$uibench" --db "$db" --insights --max-stall-ms "$max_stall_ms" --limit-ms 300000
