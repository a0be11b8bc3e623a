#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the lock tracer costs (issue #43): one master serving --rate other commands a second (GET and
# SET of random keys, `lockbench paced-load`, latency from when each was due), measured
#   "baseline"  with nothing else;
#   "traced"    while `lockctl trace lock:bench` runs with the default budget, and a python (redis-py)
#               contender tries SET lock:bench NX PX 50 every 5 ms and counts what the server answered;
#   "budget"    while a trace with --budget 256 (KiB/s, far below this stream) runs: it must stop itself.
# Prints one JSON line: the other clients' throughput and p99 in each, the tracer's CPU (% of one
# core, from /proc), whether it kept up (did not stop itself, and traced exactly as many acquire
# attempts as the contender made: the contender's own count is the truth) and how the budgeted
# trace ended. Exits 1 when the traced run neither kept up nor stopped itself, when the budgeted one
# did not stop at its budget, or when a trace showed any key but the lock's.
#
#   tests/bench/trace-bench.sh [--rate N] [--seconds S]
set -euo pipefail
rate=50000
seconds=10
source "$(dirname "$0")/options.sh"
parse_options "[--rate N] [--seconds S]" rate seconds -- "$@"
source "$(dirname "$0")/lib.sh"
need_lockctl
start_servers 1
url="${urls[0]}"
port="${ports[0]}"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# Starts `lockctl trace` in the background ($1: its output file; the rest: its options); sets $trace_pid.
start_trace() {
    local out="$1"
    shift
    "$lockctl" --json trace lock:bench --for 10m -m "$url" --audit-log "$workdir/audit.jsonl" "$@" >"$out" 2>&1 &
    trace_pid=$!
    pids+=("$trace_pid")
    for _ in $(seq 200); do
        grep -q '"state":"tracing"' "$out" && return 0
        sleep 0.05
    done
    echo "trace-bench: the trace did not start: $(cat "$out")" >&2
    exit 1
}

contender() {
    /usr/bin/python3 - "$port" "$1" <<'PY'
import json, sys, time, redis
r = redis.Redis(host="127.0.0.1", port=int(sys.argv[1]))
r.client_setname("bench-contender")
end = time.monotonic() + float(sys.argv[2])
attempts = acquired = 0
while time.monotonic() < end:
    attempts += 1
    if r.set("lock:bench", "c%d" % attempts, nx=True, px=50):
        acquired += 1
    time.sleep(0.005)
print(json.dumps({"attempts": attempts, "acquired": acquired}))
PY
}

baseline="$("$lockbench" paced-load --port "$port" --rate "$rate" --seconds "$seconds")"

start_trace "$workdir/traced.jsonl"
ticks0="$(cpu_ticks "$trace_pid")"
contender "$seconds" >"$workdir/contender.json" &
contender_pid=$!
traced="$("$lockbench" paced-load --port "$port" --rate "$rate" --seconds "$seconds")"
wait "$contender_pid"
ticks1="$(cpu_ticks "$trace_pid")"
sleep 1 # the last commands reach the trace
kill -TERM "$trace_pid" 2>/dev/null || true
wait "$trace_pid" 2>/dev/null || true

start_trace "$workdir/budget.jsonl" --budget 256
budget="$("$lockbench" paced-load --port "$port" --rate "$rate" --seconds 3)"
sleep 1
kill -TERM "$trace_pid" 2>/dev/null || true
wait "$trace_pid" 2>/dev/null || true

python3 - "$baseline" "$traced" "$budget" "$workdir" "$ticks0" "$ticks1" "$(getconf CLK_TCK)" "$seconds" "$rate" <<'PY'
import json, sys
base, traced, budget = (json.loads(a) for a in sys.argv[1:4])
work, t0, t1, hz, seconds, rate = sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), float(sys.argv[8]), int(sys.argv[9])
contender = json.load(open(work + "/contender.json"))
def events(name):
    return [json.loads(l) for l in open(work + "/" + name) if l.startswith("{")]
tr = events("traced.jsonl")
commands = [e for e in tr if e.get("event") == "command"]
summary = next((e for e in tr if e.get("event") == "summary"), {})
foreign = [c for c in commands if c["command"][1:2] != ["lock:bench"]]
attempts = sum(1 for c in commands if c["meaning"] in ("acquired", "refused"))
stopped = summary.get("stopped", "")
stoppedItself = stopped != "interrupted"
keptUp = not stoppedItself and attempts == contender["attempts"]
bs = next((e for e in events("budget.jsonl") if e.get("event") == "summary"), {})
budgetStopped = "budget" in bs.get("stopped", "")
out = {
    "bench": "trace", "rate": rate, "seconds": seconds,
    "baselineRps": base["rps"], "baselineP99Us": base["p99Us"],
    "tracedRps": traced["rps"], "tracedP99Us": traced["p99Us"],
    "rpsRatio": traced["rps"] / base["rps"], "p99Ratio": traced["p99Us"] / max(base["p99Us"], 1),
    "tracerCpuPercent": 100.0 * (t1 - t0) / hz / seconds,
    "contenderAttempts": contender["attempts"], "tracedAttempts": attempts,
    "keptUp": keptUp, "tracedStopped": stopped, "foreignCommands": len(foreign),
    "budgetRps": budget["rps"], "budgetStopped": bs.get("stopped", ""),
}
print(json.dumps(out))
sys.exit(0 if (keptUp or stoppedItself) and budgetStopped and not foreign else 1)
PY
