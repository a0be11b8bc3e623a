#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockctl serve` under load (#16): 100k Redlock locks on 5 masters with keyspace events on (each lock on every master, plus
# 100 stuck ones without expiry), 1000 of them re-acquired under a new token every second, scraped
# every second for --seconds (default 60). Prints one JSON line:
#   {"bench":"serve", "locks":…, "masters":5, "seconds":…, "scrapes":…, "scrapeMsMax":…, "scrapeMsMedian":…,
#    "scrapeMsP99":…, "renderMsMax":…, "renderMsMedian":…, "discoverySeconds":…, "rssMiBFirst":…, "rssMiBLast":…, "rssMiBMax":…,
#    "lockSeries":…, "seriesLimit":…, "seriesDropped":…, "pageKiB":…, "staleScrapes":…, "pageAgeMaxS":…}
# and fails when a scrape took more than 1 s, the per-lock series exceed --max-lock-series, or the
# resident memory grew by more than 10% between the first and the last scrape.
#
#   tests/bench/serve-bench.sh [--seconds S] [--locks L] [--max-lock-series N]
set -euo pipefail
seconds=60
locks=100000
max_series=1000
source "$(dirname "$0")/options.sh"
parse_options "[--seconds S] [--locks L] [--max-lock-series N]" seconds locks max-lock-series=max_series -- "$@"
skip_lockbench=1
source "$(dirname "$0")/lib.sh"
need_lockctl
# Keyspace events on: with 100k locks a master is kept current by its notifications, with a full
# reconciliation pass every 30 s, rather than polled every 2 s (docs/manual/statuses.md).
start_servers 5 --notify-keyspace-events KA

for url in "${urls[@]}"; do
    redis-cli -p "${url##*:}" EVAL "for i=1,$locks do redis.call('SET','lock:'..i,string.format('%032x',i),'PX',3600000) end
        for i=1,100 do redis.call('SET','lock:stuck:'..i,string.format('%032x',i)) end" 0 >/dev/null
done

"$lockctl" "${masters[@]}" serve --listen 127.0.0.1:0 --pattern 'lock:*' --max-lock-series "$max_series" \
    >"$workdir/serve.log" 2>&1 &
serve_pid=$!
pids+=("$serve_pid")
port=""
for _ in $(seq 200); do
    port="$(grep -o 'serving http://127.0.0.1:[0-9]*' "$workdir/serve.log" | grep -o '[0-9]*$' || true)"
    [[ -n "$port" ]] && break
    sleep 0.05
done
[[ -n "$port" ]] || { cat "$workdir/serve.log" >&2; echo "serve-bench: lockctl serve did not start" >&2; exit 1; }

# Churn: every second, 1000 locks change hands on every master (a new token, as a new holder writes).
churn() {
    local round=0 url
    while true; do
        round=$((round + 1))
        for url in "${urls[@]}"; do
            redis-cli -p "${url##*:}" EVAL "for i=1,1000 do local k=((ARGV[1]*1000+i) % $locks)+1
                redis.call('SET','lock:'..k,string.format('%032x',ARGV[1]*1000000+k),'PX',3600000) end" 0 "$round" >/dev/null
        done
        sleep 1
    done
}

python3 - "$port" "$serve_pid" "$seconds" "$locks" "$max_series" "$workdir" <<'PY' &
import json, statistics, sys, time, urllib.request
port, pid, seconds, locks, limit, workdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
base = f"http://127.0.0.1:{port}"

def rss_mib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

def get(path):
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return r.status, r.read()

start = time.monotonic()
while True:
    try:
        if get("/-/ready")[0] == 200:
            break
    except Exception:
        pass
    if time.monotonic() - start > 600:
        sys.exit("serve-bench: not ready after 600 s")
    time.sleep(0.1)
discovery = time.monotonic() - start
open(f"{workdir}/ready", "w").close()  # the churn starts now

times, renders, rss, ages, series, dropped, page_kib = [], [], [], [], 0, None, 0
next_at = time.monotonic()
end = next_at + seconds
while next_at < end:
    t0 = time.monotonic()
    status, body = get("/metrics")
    times.append((time.monotonic() - t0) * 1000)
    rss.append(rss_mib())
    text = body.decode()
    series = sum(1 for l in text.splitlines() if l.startswith("lockscope_lock_quorum_holding{"))
    counted = sum(float(l.split()[-1]) for l in text.splitlines() if l.startswith("lockscope_locks{"))
    dropped = next(float(l.split()[-1]) for l in text.splitlines() if l.startswith("lockscope_lock_series_dropped "))
    page_kib = len(body) / 1024
    ages += [float(l.split()[-1]) for l in text.splitlines() if l.startswith("lockscope_metrics_age_seconds ")]
    # The service's own measure of the previous scrape's rendering (the rest is HTTP and waiting).
    renders += [float(l.split()[-1]) * 1000 for l in text.splitlines() if l.startswith("lockscope_scrape_duration_seconds ")]
    next_at += 1
    time.sleep(max(0, next_at - time.monotonic()))
times_sorted = sorted(times)
out = {"bench": "serve", "locks": locks + 100, "masters": 5, "seconds": seconds, "scrapes": len(times),
       "scrapeMsMax": round(max(times), 1), "scrapeMsMedian": round(statistics.median(times), 1),
       "scrapeMsP99": round(times_sorted[min(len(times) - 1, int(len(times) * 0.99))], 1),
       "renderMsMax": round(max(renders or [0]), 1), "renderMsMedian": round(statistics.median(renders or [0]), 1),
       "discoverySeconds": round(discovery, 1), "rssMiBFirst": round(rss[0], 1), "rssMiBLast": round(rss[-1], 1),
       "rssMiBMax": round(max(rss), 1), "lockSeries": series, "seriesLimit": limit,
       "seriesDropped": dropped, "locksCounted": counted, "pageKiB": round(page_kib, 1),
       "staleScrapes": sum(1 for a in ages if a > 0), "pageAgeMaxS": round(max(ages or [0]), 2)}
print(json.dumps(out))
problems = []
if max(times) > 1000:
    problems.append(f"a scrape took {max(times):.0f} ms")
if series > limit:
    problems.append(f"{series} lock series, limit {limit}")
if rss[-1] > rss[0] * 1.10:
    problems.append(f"RSS grew from {rss[0]:.0f} to {rss[-1]:.0f} MiB")
if counted != locks + 100:
    problems.append(f"{counted} locks counted, {locks + 100} written")
if problems:
    sys.exit("serve-bench: " + "; ".join(problems))
PY
scraper=$!
while [[ ! -e "$workdir/ready" ]] && kill -0 "$scraper" 2>/dev/null; do sleep 0.1; done
churn &
churner=$!
pids+=("$churner")
status=0
wait "$scraper" || status=$?
kill "$churner" 2>/dev/null || true
exit "$status"
