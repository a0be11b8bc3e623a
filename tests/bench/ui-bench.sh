#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The window's responsiveness: 5 masters with 1M unrelated keys each (DEBUG POPULATE) and 100k locks
# spread over them (most on all five, some on three, some contested), the real window offscreen
# through the first full discovery and a reconciliation, scrolling a page per frame through the table
# while the reconciliation runs. Prints uibench's JSON line:
#   {"locks":…,"maxStallMs":…,"p99StallMs":…,"maxStallCpuMs":…,"p99StallCpuMs":…,
#    "longestStall":{…},"p99Stalls":{…},"peakRssMiB":…,"loadMs":…,
#    "scrollFrames":…,"scrollFrameP99Ms":…,"scrollFrameMaxMs":…,
#    "scansMs":…,"initialScanMs":…,"firstRowsMs":…,"guiCpuAtScansMs":…,"slices":…,"addingSlices":…,
#    "guiCpuMs":…,"processCpuMs":…,"threadCpuMs":{…},
#    "baselineScanMs":…,
#    "baselineMachineShare":…,
#    "targets":{…},"targetsMet":…}
# The breakdown of loadMs (the first full view): scansMs when every master's first SCAN pass had
# gone through its keyspace, initialScanMs when the monitor's first complete picture reached the
# GUI thread, firstRowsMs when the first rows reached the table; guiCpuMs / processCpuMs the CPU
# used by then, and threadCpuMs the process's by thread name ("gui", the five "lockscope-scan" as one,
# the monitor's "lockscope-core", "recording write", ...). maxStallCpuMs / p99StallCpuMs: the same of the GUI thread's own CPU time in each
# gap (a stall with little of it is a thread waiting for a core, not one working). longestStall and
# p99Stalls (every gap at or above the 99th percentile, summed) split gaps by Linux's scheduler
# statistics: {"gaps","stallMs","cpuMs","runQueueMs" (runnable, waiting for a core: behind what?
# `perf sched` tells), "blockedMs" (neither: a lock, a fault)}. guiCpuAtScansMs: the GUI thread's
# CPU while the scans still ran; slices / addingSlices: the table's slices before the first view. Targets (issue
# #19), judged on the wall-clock figures: loadMs <= 5000, maxStallMs <= 33, p99StallMs <= 8,
# peakRssMiB <= 200; each is printed as met or not (stderr), and in the JSON line.
#
#   tests/bench/ui-bench.sh [LOCKS] [KEYS_PER_MASTER]     (LOCKSCOPE_BUILD=DIR; default build/)
#
# The 1M case (issue #19): 1 master with keyspace notifications on (as a deployment that lets the
# window follow events, not poll), LOCKS `SET lock:mN <32 hex> PX <ttl>` locks, and lockbench
# ttl-writer changing the TTL of a fifth of them every second by real PEXPIRE writes. Once the
# table is full the window scrolls a page per frame, then filters while it scrolls (types "m1",
# about 11 % of the locks, clears it, switches "Stuck" on and off). One JSON line: uibench's figures
# (per phase) plus the writer's achieved writesPerSec; exit 1 unless the longest stall while
# scrolling and filtering is <= 50 ms, peak RSS <= 1.2 GiB and the writer kept up (>= 90 %).
#
#   tests/bench/ui-bench.sh --million [LOCKS] [SCROLL_MS]       (defaults: 1000000, 5000)
set -euo pipefail
if [[ "${1:-}" == "--million" ]]; then
    million=1
    shift
fi
locks="${1:-100000}"
keys="${2:-1000000}"
source "$(dirname "$0")/lib.sh"
uibench="$build/tests/bench/uibench/uibench"
if [[ ! -x "$uibench" ]]; then
    cmake --build "$build" --target uibench >&2
fi

if [[ -n "${million:-}" ]]; then
    locks="${1:-1000000}"
    scroll_ms="${2:-5000}"
    rate=$((locks / 5))
    start_servers 1 --notify-keyspace-events KA
    port="${urls[0]##*:}"
    awk -v n="$locks" 'BEGIN {
        for (i = 0; i < n; i++) {
            key = "lock:m" i
            ttl = 1800000 + i % 1800000
            printf "*5\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$32\r\n%032x\r\n$2\r\nPX\r\n$%d\r\n%d\r\n", length(key), key, i, length(ttl ""), ttl
        }
    }' | redis-cli -h 127.0.0.1 -p "$port" --pipe >/dev/null
    "$lockbench" ttl-writer -m "${urls[0]}" --keys "$locks" --rate "$rate" >"$workdir/writer.json" &
    writer=$!
    pids+=("$writer")
    set +e
    # UIBENCH_WRAPPER and UIBENCH_ARGS as in the 100k case below.
    QT_QPA_PLATFORM=offscreen ${UIBENCH_WRAPPER:-} "$uibench" "${masters[@]}" ${UIBENCH_ARGS:-} --expect "$locks" \
        --filter m1 --scroll-ms "$scroll_ms" --limit-ms "${UIBENCH_LIMIT_MS:-600000}" >"$workdir/ui.json"
    set -e
    kill -TERM "$writer"
    wait "$writer" || true
    python3 - "$workdir/ui.json" "$workdir/writer.json" "$rate" <<'PY'
import json, sys
# The last JSON line: a wrapper (heaptrack) prints lines of its own on the same output.
ui = json.loads([l for l in open(sys.argv[1]).read().splitlines() if l.startswith("{")][-1])
writer = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
rate = int(sys.argv[3])
ui["writesPerSecTarget"] = rate
ui["writesPerSec"] = writer["writesPerSec"]
ui["writeErrors"] = writer["errors"]
ui["writerKeptUp"] = writer["writesPerSec"] >= 0.9 * rate and writer["errors"] == 0
ui["targetsMet"] = ui["stallTargetMet"] and ui["rssTargetMet"] and ui["writerKeptUp"]
print(json.dumps(ui, separators=(",", ":")))
sys.exit(0 if ui["targetsMet"] else 1)
PY
    exit $?
fi

start_servers 5 --enable-debug-command yes

# Locks as RESP through redis-cli --pipe: every 10th on three masters only (partial on the others'
# view stays a quorum), every 50th contested (a different token on two masters).
for m in 0 1 2 3 4; do
    redis-cli -h 127.0.0.1 -p "${ports[$m]}" DEBUG POPULATE "$keys" key 16 >/dev/null
    awk -v n="$locks" -v m="$m" 'BEGIN {
        for (i = 0; i < n; i++) {
            if (i % 10 == 0 && m > 2) continue
            tok = sprintf("%032x", i)
            if (i % 50 == 1 && m > 2) tok = sprintf("%032x", i + 7777777)
            key = "lock:bench:" i
            printf "*5\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$32\r\n%s\r\n$2\r\nPX\r\n$7\r\n3600000\r\n", length(key), key, tok
        }
    }' | redis-cli -h 127.0.0.1 -p "${ports[$m]}" --pipe >/dev/null
done
# The locks took each keyspace past its table's size: both sides are measured once that is settled.
wait_rehashed "${ports[@]}"

# The floor of the first view on this machine, measured in the same run: the bare hiredis loop
# (lockbench scan-baseline: SCAN MATCH *lock* COUNT 1000 and a pipelined GET + PTTL per key found,
# a thread per master) over the same five masters. The servers' own work (visiting 5.5M keys,
# answering 1M reads) is most of it, and on two cores it is what the window waits for too.
# How much of the machine the bare loop kept busy: the servers' CPU (INFO cpu) and its own, over its
# wall time and the machine's CPUs (baselineMachineShare; near 1, nothing else could have run faster).
servers_cpu() {
    local p
    for p in "${ports[@]}"; do
        redis-cli -p "$p" INFO cpu | tr -d '\r' | sed -n 's/^used_cpu_\(user\|sys\):\(.*\)/\2/p'
    done | python3 -c 'import sys; print(sum(float(x) for x in sys.stdin))'
}
cpu_before="$(servers_cpu)"
read -r baseline_ms baseline_client_cpu < <(python3 -c '
import json, resource, subprocess, sys
out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True).stdout
seconds = json.loads(out.strip().splitlines()[-1])["seconds"]
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round(seconds * 1000), usage.ru_utime + usage.ru_stime)' "$lockbench" scan-baseline "${masters[@]}" --pattern '*lock*')
read -r baseline_share baseline_servers_ms baseline_client_ms < <(python3 -c 'import os, sys
servers = float(sys.argv[2]) - float(sys.argv[1])
client = float(sys.argv[3])
print(round((servers + client) / (int(sys.argv[4]) / 1000 * os.cpu_count()), 2), round(servers * 1000),
      round(client * 1000))' "$cpu_before" "$(servers_cpu)" "$baseline_client_cpu" "$baseline_ms")

# UIBENCH_WRAPPER="perf record -g -o /tmp/ui.perf" profiles the run; UIBENCH_ARGS adds options of
# lockscope's (e.g. "--scan-rate max", for a first pass at full speed).
set +e
# The servers' CPU up to the first view (serversCpuMs) sets the window's against the bare loop's.
server_pids="$(IFS=,; echo "${pids[*]}")"
output="$(QT_QPA_PLATFORM=offscreen ${UIBENCH_WRAPPER:-} "$uibench" "${masters[@]}" ${UIBENCH_ARGS:-} --expect "$locks" --settle-ms 4000 --server-pids "$server_pids" --limit-ms "${UIBENCH_LIMIT_MS:-300000}")"
rc=$?
set -e
# A wrapper (heaptrack) may print lines of its own: they go to stderr, the JSON line is judged.
printf '%s\n' "$output" | grep -v '^{' >&2 || true
line="$(printf '%s\n' "$output" | grep '^{' | tail -n 1)"
if [[ -z "$line" ]]; then
    echo "ui-bench: uibench printed no result (exit $rc)" >&2
    exit "$((rc == 0 ? 1 : rc))"
fi
# Issue #19's targets for the window at 100k locks, judged on this run (at a smaller scale they are
# only indicative): the JSON line gains "targets" (each one met or not) and "targetsMet".
python3 -c '
import json, sys
r = json.loads(sys.argv[1])
r["baselineScanMs"] = int(sys.argv[2])
r["baselineMachineShare"] = float(sys.argv[3])
r["baselineServersCpuMs"] = int(sys.argv[4])
r["baselineClientCpuMs"] = int(sys.argv[5])
limits = {"loadMs": 5000, "maxStallMs": 33, "p99StallMs": 8, "peakRssMiB": 200}
r["targets"] = {k: {"limit": v, "met": 0 <= r.get(k, -1) <= v} for k, v in limits.items()}
r["targetsMet"] = all(t["met"] for t in r["targets"].values())
print(json.dumps(r, separators=(",", ":")))
for k, t in r["targets"].items():
    print("target %-11s <= %-5g %s (%s)" % (k, t["limit"], "met" if t["met"] else "NOT met", r.get(k)), file=sys.stderr)
print("first view %d ms, %.2fx the bare hiredis loop over the same masters (%d ms, which kept %d%% of"
      " the machine busy)" % (r["loadMs"], r["loadMs"] / max(1, r["baselineScanMs"]), r["baselineScanMs"],
                             round(100 * r["baselineMachineShare"])), file=sys.stderr)
print("CPU to the first view: servers %d ms (bare loop: %d), lockscope %d ms (bare loop: %d)"
      % (r.get("serversCpuMs", -1), r["baselineServersCpuMs"], r.get("processCpuMs", -1),
         r["baselineClientCpuMs"]), file=sys.stderr)
' "$line" "$baseline_ms" "$baseline_share" "$baseline_servers_ms" "$baseline_client_ms"
exit "$rc"
