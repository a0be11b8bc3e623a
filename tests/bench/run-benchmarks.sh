#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every LockScope benchmark, each against redis-servers of its own (see lib.sh), one after another.
# Each prints JSON lines; comparisons with a baseline are measured in the same run.
#
#   tests/bench/run-benchmarks.sh            (LOCKSCOPE_BUILD=DIR picks the build tree; default build/)
set -euo pipefail
here="$(dirname "$0")"
echo '# pipeline: connection vs synchronous hiredis pipelining, batch 1000' >&2
"$here/pipeline-bench.sh"
echo '# acquire: Redlock vs node-redlock on 5 masters' >&2
"$here/acquire-bench.sh"
echo '# scan: full discovery of 5 x 200k keys vs bare hiredis SCAN + GET/PTTL' >&2
"$here/scan-bench.sh"
echo '# list: lockctl list --json over 1M per-entity locks vs bare hiredis SCAN + GET/PTTL' >&2
"$here/list-bench.sh"
echo '# event-latency: keyspace event to view, 5k changes/s' >&2
"$here/event-latency-bench.sh"
echo '# recorder: monitoring with and without the flight recorder, 5k changes/s on 5 masters' >&2
"$here/recorder-bench.sh"
echo "# live figures: what serve's families cost the monitor (issue #44)" >&2
"$here/figures-bench.sh"
echo '# incidents: lockctl incidents over an 8-million-event recording with ten planted double grants' >&2
"$here/incidents-bench.sh"
echo '# stats: lockctl stats over the same recording' >&2
"$here/stats-bench.sh"
echo '# safety: two holders at once detected against the demo clients own record, 20 runs per scenario' >&2
"$here/safety-bench.sh"
echo '# soak: no false alarm over 10,000 handovers by real lock libraries' >&2
"$here/soak-bench.sh"
echo '# trace: what lockctl trace costs a master serving 50k other commands a second' >&2
"$here/trace-bench.sh"
echo '# serve: lockctl serve scraped every second, 100k locks on 5 masters' >&2
"$here/serve-bench.sh"
echo '# monitor-mem: peak RSS per lock of lockctl watch and serve, 1M locks on 1 master' >&2
"$here/monitor-mem-bench.sh"
if [[ -x "$here/ui-bench.sh" ]]; then
    echo '# ui: GUI event-loop stalls with 100k locks on 5 masters' >&2
    "$here/ui-bench.sh"
    echo '# insights: the Insights view over a recording of a million locks, GUI stalls meanwhile' >&2
    "$here/insights-bench.sh"
fi
