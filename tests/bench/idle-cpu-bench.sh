#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An idle monitor's cost: --locks locks (no expiry changes, nothing written) on each of --masters
# masters, one `lockctl watch` (or record/serve) over them; after --settle seconds (the first read),
# its CPU is read from /proc/PID/stat (utime+stime) over --seconds and its resident memory once a
# second. Keyspace notifications are off unless --notify (polling mode, as on most servers). Prints:
#   {"bench":"idle-cpu", "command":…, "locks":…, "masters":…, "notify":…, "seconds":…, "cpuTicks":…,
#    "cpuPercent":…, "rssMiBFirst":…, "rssMiBLast":…, "rssMiBMax":…}
#
#   tests/bench/idle-cpu-bench.sh [--command watch|record|serve] [--locks L] [--masters M]
#                                 [--seconds S] [--settle S] [--notify] [--cpus LIST]
# --cpus pins lockctl to those CPUs (taskset), e.g. 0: its scan threads and its monitor thread then
# share one core, as on a loaded machine, where a monitor slower than its scans shows.
set -euo pipefail
command=watch
locks=20000
count=1
seconds=5
settle=3
notify=""
pin=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --command) command="$2"; shift 2 ;;
    --locks) locks="$2"; shift 2 ;;
    --masters) count="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --notify) notify=KA; shift ;;
    --cpus) pin=(taskset -c "$2"); shift 2 ;;
    *) echo "usage: $0 [--command watch|record|serve] [--locks L] [--masters M] [--seconds S] [--settle S] [--notify] [--cpus LIST]" >&2; exit 2 ;;
    esac
done
skip_lockbench=1
source "$(dirname "$0")/lib.sh"
need_lockctl
start_servers "$count" --notify-keyspace-events "$notify"
for url in "${urls[@]}"; do
    redis-cli -p "${url##*:}" EVAL "for i=1,$locks do redis.call('SET','lock:'..i,string.format('%032x',i),'PX',3600000) end" 0 >/dev/null
done

case "$command" in
watch) args=(watch --pattern 'lock:*') ;;
record) args=(record --pattern 'lock:*' --db "$workdir/recording.db") ;;
serve) args=(serve --listen 127.0.0.1:0 --pattern 'lock:*') ;;
*) echo "idle-cpu-bench: unknown --command $command" >&2; exit 2 ;;
esac
"${pin[@]}" "$lockctl" "${masters[@]}" "${args[@]}" >/dev/null 2>"$workdir/lockctl.err" &
pid=$!
pids+=("$pid")

python3 - "$pid" "$seconds" "$settle" "$command" "$locks" "$count" "${notify:-off}" <<'PY'
import json, os, sys, time
pid, seconds, settle = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime
def rss_mib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
time.sleep(settle)
start, t0, rss = ticks(), time.monotonic(), []
for _ in range(seconds):
    time.sleep(1)
    rss.append(rss_mib())
used = ticks() - start
elapsed = time.monotonic() - t0
hz = os.sysconf("SC_CLK_TCK")
print(json.dumps({"bench": "idle-cpu", "command": sys.argv[4], "locks": int(sys.argv[5]),
                  "masters": int(sys.argv[6]), "notify": sys.argv[7], "seconds": seconds,
                  "cpuTicks": used, "cpuPercent": round(100 * used / hz / elapsed, 1),
                  "rssMiBFirst": rss[0], "rssMiBLast": rss[-1], "rssMiBMax": max(rss)}))
PY
kill -0 "$pid" 2>/dev/null || { cat "$workdir/lockctl.err" >&2; echo "idle-cpu-bench: lockctl exited" >&2; exit 1; }
