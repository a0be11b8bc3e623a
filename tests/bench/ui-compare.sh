#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# compare.sh's companion for the window (issue #47): this checkout's window against BASE_COMMIT's,
# ui-bench.sh (100k locks on five masters, `--scan-rate max` unless UIBENCH_ARGS says otherwise)
# run PAIRS times for each, the two alternately (A B, B A, ...), each run with its own servers and
# its own bare loop. A benchmark, not a timed test: it is not part of the suite or CI.
#
#   tests/bench/ui-compare.sh BASE_COMMIT [--pairs N]        (default 5 pairs, about 15 minutes)
#
# One run's first view varies by a third on a shared two-core machine (the same binary read 1.07x to
# 1.52x its bare loop in one afternoon): a single run of each build says little, and the two builds
# alternating over several pairs say what a change did.
#
# Prints one JSON line per figure, as compare.sh does: {"figure", "base", "head", "ratio",
# "pairedRatio", "worse", "baseRuns", "headRuns"}: the medians of each build's runs, their ratio
# head/base, the median of each pair's head/base, and `worse` when head is more than 5 % worse by
# both (never with fewer than three pairs); exits 1 when any is. Figures: firstViewRatio (loadMs
# over the same run's bare loop, the issue's figure), loadMs, processCpuMs, peakRssMiB, maxStallMs, p99StallMs; then, without a verdict, the
# CPU to the first view of the GUI, monitor, scan and recording-writer threads (cpu.gui, cpu.core,
# cpu.scan, cpu.writer), which tell whose a change in processCpuMs is. The builds (RelWithDebInfo,
# as ui-bench.sh builds, so that a developer's ccache serves them) are kept in build-uicompare/
# (head) and build-compare-BASE/build-ui (in compare.sh's worktree of BASE) for the next run.
set -euo pipefail
[[ $# -ge 1 && "$1" != --* ]] || { echo "usage: $0 BASE_COMMIT [--pairs N]" >&2; exit 2; }
base_rev=$1
shift
pairs=5
source "$(dirname "$0")/options.sh"
parse_options "BASE_COMMIT [--pairs N]" pairs -- "$@"
here="$(cd "$(dirname "$0")/../.." && pwd)"
# uibench and lockbench (ui-bench.sh's bare loop), as ui-bench.sh builds them.
source "$(dirname "$0")/twobuilds.sh"
two_builds "$base_rev" RelWithDebInfo ON build-ui build-uicompare uibench lockbench
declare -A dirs=([base]="$base_build" [head]="$head_build")

results="$(mktemp "${TMPDIR:-/tmp}/lockscope-uicompare.XXXXXX")"
trap 'rm -f "$results"' EXIT
export UIBENCH_ARGS="${UIBENCH_ARGS:---scan-rate max}"
for ((pair = 0; pair < pairs; pair++)); do
    # Which build goes first alternates: neither always follows the other's load.
    if ((pair % 2 == 0)); then order=(base head); else order=(head base); fi
    for side in "${order[@]}"; do
        # ui-bench.sh exits 1 when a target of the window is not met: its figures count all the same.
        line="$(LOCKSCOPE_BUILD="${dirs[$side]}" "$here/tests/bench/ui-bench.sh" 2>/dev/null | grep '^{' | tail -n 1)" || true
        [[ -n "$line" ]] || { echo "ui-compare.sh: ui-bench.sh printed no figures for $side" >&2; exit 1; }
        # firstViewRatio: the first view over the same run's bare loop, the issue's figure; cpu.*: the
        # CPU to it of the threads that share processCpuMs, so that a change in it says whose it is.
        tag='import json, sys; r = json.loads(sys.argv[2]); ratio = round(r["loadMs"] / r["baselineScanMs"], 3)
threads = r.get("threadCpuMs", {})
cpu = {"gui": threads.get("gui", 0), "core": threads.get("lockscope-core", 0),
       "scan": threads.get("lockscope-scan", 0), "writer": threads.get("recording write", 0)}
print(json.dumps({**r, "side": sys.argv[1], "figure": "window", "firstViewRatio": ratio}))
print(json.dumps({**cpu, "side": sys.argv[1], "figure": "cpu"}))'
        python3 -c "$tag" "$side" "$line" >>"$results"
        echo "ui-compare.sh: pair $((pair + 1)) of $pairs, $side done" >&2
    done
done

# Both ways of comparing must agree, over three pairs at least: with this much noise either alone
# flagged builds whose window code was the same (3 pairs: firstViewRatio 1.067 of the medians, 0.963
# paired), and one pair of the same code read 1.36 (1.04x against 1.42x).
python3 "$(dirname "$0")/pairedfigures.py" "$results" --paired-too --min-pairs 3 window.firstViewRatio \
    window.loadMs window.processCpuMs window.peakRssMiB window.maxStallMs window.p99StallMs && verdict=0 || verdict=$?
# Where processCpuMs went, thread by thread (to the first view, in ms): said, not judged.
python3 "$(dirname "$0")/pairedfigures.py" "$results" --no-verdict cpu.gui cpu.core cpu.scan cpu.writer
exit "$verdict"
