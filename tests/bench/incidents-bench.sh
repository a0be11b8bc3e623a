#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `lockctl incidents` costs over a full default recording (issue #42: about 8 million events,
# within 10 s and 300 MiB): a synthetic recording in a busy Redlock set's shape, written through the
# recorder's own writer with --planted double grants in it, then read back by `lockctl incidents`.
# Prints one JSON line: events, seconds, peak MiB, planted and found; fails when a planted one is
# missed, when anything else is reported at probable or proven, or when a budget is exceeded.
#
#   tests/bench/incidents-bench.sh [--events N] [--planted K] [--max-seconds S] [--max-mib M]
set -euo pipefail
events=8000000
planted=10
max_seconds=10
max_mib=300
source "$(dirname "$0")/options.sh"
parse_options "[--events N] [--planted K] [--max-seconds S] [--max-mib M]" \
    events planted max-seconds=max_seconds max-mib=max_mib -- "$@"
source "$(dirname "$0")/lib.sh"
need_lockctl
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/recording.sqlite"
"$lockbench" synth-recording --out "$db" --events "$events" --planted "$planted" > "$work/synth.json"
/usr/bin/time -f '%e %M' -o "$work/time" \
    "$lockctl" --json incidents --db "$db" --min-confidence probable > "$work/incidents.json" || true
# GNU time puts "Command exited with non-zero status 1" first when incidents were found (exit 1).
read -r seconds kib < <(tail -n 1 "$work/time")
python3 - "$work/synth.json" "$work/incidents.json" "$seconds" "$kib" "$planted" "$max_seconds" "$max_mib" <<'PY'
import json, sys
synth = json.load(open(sys.argv[1]))
found = json.load(open(sys.argv[2]))["incidents"]
seconds, kib, planted = float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
max_seconds, max_mib = float(sys.argv[6]), float(sys.argv[7])
hits = [i for i in found if i["resource"].startswith("lock:planted:")]
others = [i for i in found if not i["resource"].startswith("lock:planted:")]
line = {"bench": "incidents", "events": synth["events"], "bytes": synth["bytes"], "seconds": seconds,
        "peakMiB": round(kib / 1024, 1), "planted": planted, "found": len(hits), "falseAlarms": len(others)}
print(json.dumps(line))
ok = len(hits) == planted and not others and seconds <= max_seconds and kib / 1024 <= max_mib
sys.exit(0 if ok else 1)
PY
