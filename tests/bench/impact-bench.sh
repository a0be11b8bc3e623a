#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What scanning costs the server's other clients (issue #19): one master with --keys keys (DEBUG
# POPULATE) of which --locks are locks (redis-cli --pipe), and redis-benchmark (GET of random keys,
# 10 connections, --requests requests) run
#   idle; while `lockctl list --pattern '*' --json` runs in a loop at the default scan rate ("polite");
#   the same loop with --scan-rate max ("max"); while the bare hiredis SCAN + GET + PTTL loop runs
#   (`lockbench scan-baseline`, "bare"),
# each with its GET throughput and p99, and how many passes the loop finished meanwhile. Then one full
# pass of each on the otherwise idle server, timed. Measures whatever `lockctl list` is: only its
# command line is used. Prints one JSON line and exits non-zero when a target is missed:
#   politeP99    the polite loop's p99 <= 1.5 x idle          politeRps   its throughput >= 0.8 x idle
#   politePass   a polite pass <= 15 s per 1M keys (idle)     maxPass     a max pass <= 1.2 x the bare one
#   politeRateUnderLoad  while the clients are measured, the polite loop reads >= 1M keys / 15 s
#                (keysReadPerSec of each loop: PTTL calls on the master, one per key read)
# The floor, not a target ("floor"): the bare loop paced evenly (`scan-baseline --rate`) at the rate the
# targets ask for (1M keys / 15 s), with pages of COUNT 20, 100 and 1000, at nice 0 and at nice 10 (as a
# polite `lockctl list` runs). Small pages keep the server's turns short (other clients' p99) but cost
# it more per key (their throughput); large pages the other way round; nice 10 leaves the CPU to the
# server and its clients, and may not keep the rate. "floorMeets" says whether any of them met
# politeP99 and politeRps together, and kept the rate: what any client reading that many keys can do
# on this machine.
#
#   tests/bench/impact-bench.sh [--keys N] [--locks L] [--requests R] [--lockctl PATH]
# (LOCKSCOPE_BUILD=DIR: the build with lockbench; --lockctl: another lockctl, e.g. main's, to compare)
set -euo pipefail
keys=1000000
locks=50000
requests=300000
lockctl_override=""
source "$(dirname "$0")/options.sh"
parse_options "[--keys N] [--locks L] [--requests R] [--lockctl PATH]" keys locks requests lockctl=lockctl_override -- "$@"
source "$(dirname "$0")/lib.sh"
if [[ -n "$lockctl_override" ]]; then
    lockctl="$lockctl_override"
else
    need_lockctl
fi
start_servers 1 --enable-debug-command yes
url="${urls[0]}"
# IMPACT_PIN=1: the server alone on CPU 0, everything else (the clients measured, the scanning loops)
# on CPU 1, as on a dedicated Redis host: the loops then compete with the server's clients for a
# client machine's CPU, not with the server for its own.
if [[ "${IMPACT_PIN:-}" == 1 ]]; then
    taskset -pc 0 "${pids[-1]}" >/dev/null
    taskset -pc 1 $$ >/dev/null
fi
port="${url##*:}"

redis-cli -p "$port" DEBUG POPULATE "$((keys - locks))" key 16 >/dev/null
pipe_locks "$port" "$locks" lock:impact: 3600000
[[ "$(redis-cli -p "$port" DBSIZE)" == "$keys" ]] || { echo "impact-bench: DBSIZE is not $keys" >&2; exit 1; }

polite=("$lockctl" list -m "$url" --pattern '*' --json)
max=("$lockctl" list -m "$url" --pattern '*' --json --scan-rate max)
# A lockctl from before --scan-rate (main's, to compare with) scans at full speed anyway. The help is
# read whole first: `--help | grep -q` under pipefail fails whenever grep stops reading before lockctl
# has written the rest (SIGPIPE), which on a quiet machine it often does, and `max` then ran paced.
help="$("$lockctl" --help 2>&1 || true)"
if ! grep -q -- '--scan-rate' <<<"$help"; then
    max=("${polite[@]}")
fi
bare=("$lockbench" scan-baseline -m "$url" --pattern '*')

# One redis-benchmark run: {"rps": ..., "p99Ms": ...}.
measure() {
    redis-benchmark -h 127.0.0.1 -p "$port" -t get -r 1000000 -c 10 -n "$requests" --csv |
        python3 -c '
import csv, json, sys
rows = [r for r in csv.DictReader(sys.stdin) if r.get("test") == "GET"]
print(json.dumps({"rps": float(rows[0]["rps"]), "p99Ms": float(rows[0]["p99_latency_ms"])}))'
}

# Keys read so far on the master: each loop (lockctl's reads, the bare loop's) sends a PTTL per key;
# redis-benchmark sends only GETs.
pttl_calls() {
    redis-cli -p "$port" INFO commandstats | sed -n 's/^cmdstat_pttl:calls=\([0-9]*\).*/\1/p' | grep . || echo 0
}

# run_pass CMD...: one pass to the end; prints its seconds, fails the benchmark when it fails.
run_pass() {
    local start end
    start="$(date +%s.%N)"
    if ! "$@" >/dev/null 2>"$workdir/pass.err"; then
        echo "impact-bench: ${*:0:3} failed: $(head -c 500 "$workdir/pass.err")" >&2
        exit 1
    fi
    end="$(date +%s.%N)"
    python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$end"
}

# under_load NAME CMD...: redis-benchmark while CMD runs in a loop; the loop's finished passes
# (each one's seconds on a line of $workdir/NAME.passes) are counted.
under_load() {
    local name="$1" loop child
    shift
    : >"$workdir/$name.passes"
    (
        while :; do
            start="$(date +%s.%N)"
            "$@" >/dev/null 2>&1 &
            echo $! >"$workdir/$name.child"
            wait $! || exit 0
            python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" \
                "$(date +%s.%N)" >>"$workdir/$name.passes"
        done
    ) &
    loop=$!
    sleep 1 # the loop is under way (connected, scanning) before the clients are measured
    local figures reads_before reads_after t0 t1
    reads_before="$(pttl_calls)"
    t0="$(date +%s.%N)"
    figures="$(measure)"
    t1="$(date +%s.%N)"
    reads_after="$(pttl_calls)"
    kill "$loop" 2>/dev/null || true
    wait "$loop" 2>/dev/null || true
    child="$(cat "$workdir/$name.child" 2>/dev/null || true)"
    if [[ -n "$child" ]]; then
        kill "$child" 2>/dev/null || true
    fi
    python3 -c '
import json, sys
f = json.loads(sys.argv[1])
passes = [float(l) for l in open(sys.argv[2]) if l.strip()]
# How fast the loop read keys while the clients were measured: a loop that stalls (starved of CPU,
# or backed off to nothing) costs the clients nothing and scans nothing.
f["keysReadPerSec"] = round((int(sys.argv[4]) - int(sys.argv[3])) / (float(sys.argv[6]) - float(sys.argv[5])))
f["passes"] = len(passes)
if passes:
    f["meanPassSeconds"] = sum(passes) / len(passes)
print(json.dumps(f))' "$figures" "$workdir/$name.passes" "$reads_before" "$reads_after" "$t0" "$t1"
}

idle="$(measure)"
polite_load="$(under_load polite "${polite[@]}")"
floor_loads=()
for niceness in 0 10; do
    for count in 20 100 1000; do
        floor_loads+=("$(under_load "floor${count}nice$niceness" nice -n "$niceness" "$lockbench" \
            scan-baseline -m "$url" --pattern '*' --count "$count" --rate "$((keys / 15))")")
    done
done
max_load="$(under_load max "${max[@]}")"
bare_load="$(under_load bare "${bare[@]}")"
polite_pass="$(run_pass "${polite[@]}")"
max_pass="$(run_pass "${max[@]}")"
bare_pass="$(run_pass "${bare[@]}")"

python3 - "$keys" "$locks" "$requests" "$idle" "$polite_load" "$max_load" "$bare_load" \
    "$polite_pass" "$max_pass" "$bare_pass" "$(cut -d' ' -f1-3 /proc/loadavg)" "${floor_loads[@]}" <<'PY'
import json, sys
keys, locks, requests = (int(x) for x in sys.argv[1:4])
idle, polite, mx, bare = (json.loads(x) for x in sys.argv[4:8])
polite_pass, max_pass, bare_pass = (float(x) for x in sys.argv[8:11])
floor = dict(zip(("count20", "count100", "count1000", "count20nice10", "count100nice10", "count1000nice10"),
                 (json.loads(x) for x in sys.argv[12:18])))
for f in floor.values():
    f["p99Ratio"] = f["p99Ms"] / idle["p99Ms"]
    f["rpsRatio"] = f["rps"] / idle["rps"]
floor_meets = any(f["p99Ratio"] <= 1.5 and f["rpsRatio"] >= 0.8 and f["keysReadPerSec"] >= keys / 15.0
                  for f in floor.values())
targets = {
    "politeP99": polite["p99Ms"] <= 1.5 * idle["p99Ms"],
    "politeRps": polite["rps"] >= 0.8 * idle["rps"],
    "politePass": polite_pass <= 15.0 * keys / 1e6,
    # ... and under the clients' load it still reads at that pace (1M keys in 15 s).
    "politeRateUnderLoad": polite["keysReadPerSec"] >= keys / 15.0,
    "maxPass": max_pass <= 1.2 * bare_pass,
}
print(json.dumps({
    "bench": "impact", "keys": keys, "locks": locks, "requests": requests,
    "idle": idle, "polite": polite, "max": mx, "bare": bare,
    "passSeconds": {"polite": polite_pass, "max": max_pass, "bare": bare_pass},
    "p99Ratio": polite["p99Ms"] / idle["p99Ms"], "rpsRatio": polite["rps"] / idle["rps"],
    "maxVsBare": max_pass / bare_pass,
    "floor": floor, "floorMeets": floor_meets,
    "targets": targets, "met": all(targets.values()), "loadavg": sys.argv[11],
}))
sys.exit(0 if all(targets.values()) else 1)
PY
