#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Before submitting a change to a hot path (issue #47): this checkout against BASE_COMMIT, both built
# alike (Release, benchmarks on, no window), run alternately (A B A B A B by default, each figure's
# runs of both sides back to back) on the same servers. A benchmark, not a timed test: it is not part
# of the suite or CI.
#
#   tests/bench/compare.sh BASE_COMMIT [--rounds R] [--list-locks N]
#
# Figures, each the median of a side's runs: R rounds, of one run each, three for acquire, five for
# discovery:
#   acquire    lockbench acquire on 5 masters (64 in flight): pairsPerSec (higher is better), acquireP50Ms
#   discovery  lockbench scan on 5 masters x 200k keys (20k locks each), --scan-rate max: seconds;
#              masters of its own, written once and settled before the first round
#   list       lockctl list --json --scan-rate max on one master with N locks (1M): seconds, peakMiB
#   events     lockbench event-latency, 5 masters, 5k changes/s for 5 s: p50Ms, p99Ms
#   serve      lockctl serve on the 5 masters (keyspace events on) under the recorder benchmark's load
#              (lockbench load, head's for both sides: 5k changes/s on 20k keys for 10 s): its
#              cpuPercent (issue #44: the live figures per family add at most 5 %)
# Prints one JSON line per figure, {"figure", "base", "head", "ratio", "pairedRatio", "worse", "baseRuns",
# "headRuns"}, `ratio` head/base (of the medians), `pairedRatio` the median of each pair's head/base
# (a pair: both sides' runs of a figure, back to back),
# `worse` when head is more than 5 % worse than base; exits 1 when any is. The builds are kept in
# build-compare/ (head) and build-compare-BASE/ (a worktree of BASE) for the next run.
set -euo pipefail
[[ $# -ge 1 && "$1" != --* ]] || { echo "usage: $0 BASE_COMMIT [--rounds R] [--list-locks N]" >&2; exit 2; }
base_rev=$1
shift
rounds=3
list_locks=1000000
source "$(dirname "$0")/options.sh"
parse_options "BASE_COMMIT [--rounds R] [--list-locks N]" rounds list-locks=list_locks -- "$@"
# lockbench and lockctl, Release, without the window.
source "$(dirname "$0")/twobuilds.sh"
two_builds "$base_rev" Release OFF build build-compare lockbench lockctl

# The servers are started once, by lib.sh, for both sides (its $lockbench is unused here).
export LOCKSCOPE_BUILD="$head_build"
source "$(dirname "$0")/lib.sh"
declare -A bench=([base]="$base_build/tests/bench/lockbench/lockbench"
                  [head]="$head_build/tests/bench/lockbench/lockbench")
declare -A ctl=([base]="$base_build/app/lockctl" [head]="$head_build/app/lockctl")

start_servers 5 --enable-debug-command yes --notify-keyspace-events KA
five=("${masters[@]}")
five_ports=("${ports[@]}")
start_servers 1 --enable-debug-command yes
one=("${masters[@]:10}")
one_port="${ports[5]}"

# Discovery's keyspace: 200k keys on each of five masters of its own, 20k of them locks, written once
# and settled before the first round, so that every run of both sides scans the same keyspace: a
# discovery right after a fresh write varied more than a change does (one build's runs spread
# 0.52-0.85 s; a build flagged 8-12 % worse ran at 0.99x its base on a settled keyspace).
start_servers 5 --enable-debug-command yes
discovery=("${masters[@]:12}")
for port in "${ports[@]:6}"; do
    redis-cli -p "$port" DEBUG POPULATE 180000 filler >/dev/null
    redis-cli -p "$port" EVAL "for i=1,20000 do redis.call('SET','lock:'..i,'tok'..i,'PX',86400000) end" 0 >/dev/null
done
wait_rehashed "${ports[@]:6}"
pipe_locks "$one_port" "$list_locks" lock:m 86400000

results="$workdir/results"
: >"$results"
record() { # SIDE FIGURE JSON
    python3 -c 'import json, sys; print(json.dumps({"side": sys.argv[1], "figure": sys.argv[2], **json.loads(sys.argv[3])}))' \
        "$1" "$2" "$3" >>"$results"
}
# One figure of one side. The masters the acquire, event and serve figures write into are emptied
# first, so that every side meets them alike: a load leaves 20k keys a master that expire over the
# next 30 s, work for the servers while the next figure is measured.
run_figure() { # SIDE FIGURE
    local side=$1 figure=$2 start end port
    for port in "${five_ports[@]}"; do
        redis-cli -p "$port" FLUSHALL >/dev/null
    done
    case "$figure" in
    acquire)
        record "$side" acquire "$("${bench[$side]}" acquire "${five[@]}" --count 20000 --concurrency 64 --sequential 3000)"
        ;;
    discovery)
        local found
        found="$("${bench[$side]}" scan "${discovery[@]}" --pattern 'lock:*' --scan-rate max)"
        # Not a figure unless it found what was written.
        python3 -c 'import json, sys; sys.exit(json.loads(sys.argv[1])["locks"] != 20000)' "$found" ||
            { echo "compare.sh: discovery found $found, not the 20000 locks written" >&2; exit 1; }
        record "$side" discovery "$found"
        ;;
    list)
        start=$(date +%s.%N)
        /usr/bin/time -f %M -o "$workdir/rss" "${ctl[$side]}" "${one[@]}" --json list --scan-rate max >/dev/null
        end=$(date +%s.%N)
        record "$side" list "$(python3 -c 'import sys; print("{\"seconds\": %f, \"peakMiB\": %f}" % (float(sys.argv[2]) - float(sys.argv[1]), int(sys.argv[3]) / 1024))' \
            "$start" "$end" "$(tail -1 "$workdir/rss")")"
        ;;
    events)
        # Writes into the masters it reads: the keys it changes are its own (bench:*).
        record "$side" events "$("${bench[$side]}" event-latency "${five[@]}" --rate 5000 --seconds 5)"
        ;;
    serve)
        record "$side" serve "$(serve_cpu "${ctl[$side]}")"
        ;;
    esac
}
# serve_cpu LOCKCTL: the CPU `lockctl serve` uses (its process's, from /proc) while lockbench load
# writes; one JSON object.
serve_cpu() {
    local log="$workdir/serve.log" port="" pid before after seconds=10
    "$1" "${five[@]}" serve --listen 127.0.0.1:0 --pattern 'bench:*' >"$log" 2>&1 &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 200); do
        port="$(grep -o 'serving http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
        [[ -n "$port" ]] && break
        sleep 0.05
    done
    # Ready once its first full discovery is done.
    for _ in $(seq 600); do
        python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
            "http://127.0.0.1:$port/-/ready" 2>/dev/null && break
        sleep 0.1
    done
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    "${bench[head]}" load "${five[@]}" --rate 5000 --seconds "$seconds" --resources 20000 >/dev/null
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    python3 -c 'import os, sys; print("{\"cpuPercent\": %f}" % ((int(sys.argv[2]) - int(sys.argv[1])) * 100.0 / os.sysconf("SC_CLK_TCK") / float(sys.argv[3])))' \
        "$before" "$after" "$seconds"
}
# Both sides' runs of a figure follow each other, seconds apart: this machine's speed drifts over
# minutes (one build's discovery from 0.55 to 0.83 s in one comparison), and runs a whole side
# apart (every figure of one build, then of the other) compared two moments as much as two builds.
# The short figures run several pairs a round: a discovery (under a second) varied by 10 % from one
# run to the next, seconds apart, and three rounds flagged 9 % where ten pairs read 1.00 (session 63).
declare -A pairs=([acquire]=3 [discovery]=5 [list]=1 [events]=1 [serve]=1)
for ((round = 0; round < rounds; round++)); do
    for figure in acquire discovery list events serve; do
        for ((pair = 0; pair < pairs[$figure]; pair++)); do
            # Which side goes first alternates: neither always meets the servers fresh.
            if (((round + pair) % 2 == 0)); then order=(base head); else order=(head base); fi
            for side in "${order[@]}"; do
                run_figure "$side" "$figure"
            done
        done
    done
done

python3 "$(dirname "$0")/pairedfigures.py" "$results" acquire.pairsPerSec:higher acquire.acquireP50Ms \
    discovery.seconds list.seconds list.peakMiB events.p50Ms events.p99Ms serve.cpuPercent
