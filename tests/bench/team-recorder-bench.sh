#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Recording into a team's PostgreSQL database (issue #45), on a cluster of the run's own: the
# recorder benchmark (5 masters with keyspace events, 5k lock changes a second; the monitoring
# process without and with the recorder) once into a SQLite file and once into the database, and
# `history` of one resource from a database of 8 million events. One JSON line: both recorders'
# figures (their own CPU as a share of the monitoring process's, the backlog when the changes
# stopped) and the history's time. Fails when either recorder falls behind, either adds more than
# --max-added-cpu-percent, or a history takes over 200 ms.
#
#   tests/bench/team-recorder-bench.sh [--rate N] [--seconds S] [--rounds R] [--events N] [--max-added-cpu-percent P]
set -euo pipefail
extra=()
events=8000000
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rate | --seconds | --rounds | --max-added-cpu-percent) extra+=("$1" "$2"); shift 2 ;;
    --events) events="$2"; shift 2 ;;
    *) echo "usage: $0 [--rate N] [--seconds S] [--rounds R] [--events N] [--max-added-cpu-percent P]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/lib.sh"
start_servers 5 --notify-keyspace-events KA
start_postgres
status=0
sqlite="$("$lockbench" recorder "${masters[@]}" "${extra[@]}")" || status=1
team="$("$lockbench" recorder "${masters[@]}" "${extra[@]}" --db "$pg_url")" || status=1
history="$("$lockbench" team-history --db "$pg_url" --events "$events")" || status=1
python3 -c '
import json, sys
sqlite, team, history = (json.loads(a) for a in sys.argv[1:4])
keep = ("ownCpuOfBaselinePercent", "recorderOwnCpuPercent", "writerThreadCpuPercent", "baselineCpuPercent",
        "eventsRecorded", "maxBacklog", "backlogAtEnd", "error")
print(json.dumps({"bench": "team-recorder", "masters": sqlite["masters"], "changesPerSec": sqlite["changesPerSec"],
                  "sqlite": {k: sqlite[k] for k in keep if k in sqlite},
                  "postgresql": {k: team[k] for k in keep if k in team},
                  "history": {k: v for k, v in history.items() if k != "bench"}}))' "$sqlite" "$team" "$history"
exit "$status"
