#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `lockctl stats` costs over a full default recording (issue #44: about 8 million events,
# within 10 s and 300 MiB): the synthetic recording of incidents-bench.sh (a busy Redlock set's
# shape, written through the recorder's own writer), read back by `lockctl stats`. Prints one JSON
# line: events, seconds, peak MiB, the families found and the tenures folded into them; fails when a
# budget is exceeded or the pass found no family.
#
#   tests/bench/stats-bench.sh [--events N] [--max-seconds S] [--max-mib M]
set -euo pipefail
events=8000000
max_seconds=10
max_mib=300
source "$(dirname "$0")/options.sh"
parse_options "[--events N] [--max-seconds S] [--max-mib M]" \
    events max-seconds=max_seconds max-mib=max_mib -- "$@"
source "$(dirname "$0")/lib.sh"
need_lockctl
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/recording.sqlite"
"$lockbench" synth-recording --out "$db" --events "$events" --planted 0 > "$work/synth.json"
# The synthetic writer's 400 MB reach the disk first: the pass is timed, not the kernel's writeback.
sync "$db"
/usr/bin/time -f '%e %M' -o "$work/time" \
    "$lockctl" --json stats --db "$db" > "$work/stats.json" || true
# GNU time puts "Command exited with non-zero status 1" first when a family was flagged (exit 1).
read -r seconds kib < <(tail -n 1 "$work/time")
python3 - "$work/synth.json" "$work/stats.json" "$seconds" "$kib" "$max_seconds" "$max_mib" <<'PY'
import json, sys
synth = json.load(open(sys.argv[1]))
families = json.load(open(sys.argv[2]))["families"]
seconds, kib = float(sys.argv[3]), int(sys.argv[4])
max_seconds, max_mib = float(sys.argv[5]), float(sys.argv[6])
ended = sum(sum(v for k, v in f["endings"].items() if k != "open") for f in families)
line = {"bench": "stats", "events": synth["events"], "bytes": synth["bytes"], "seconds": seconds,
        "peakMiB": round(kib / 1024, 1), "families": len(families), "tenuresEnded": ended,
        "maxSeconds": max_seconds, "maxMiB": max_mib}
print(json.dumps(line))
ok = families and seconds <= max_seconds and kib / 1024 <= max_mib
sys.exit(0 if ok else 1)
PY
