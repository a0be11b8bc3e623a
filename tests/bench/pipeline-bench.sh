#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Pipelined throughput of LockScope's connection against a synchronous hiredis loop doing the same
# commands on the same server, batch 1000. Prints lockbench's JSON line for each of --runs runs.
#
#   tests/bench/pipeline-bench.sh [--runs N] [-- lockbench pipeline options]
set -euo pipefail
runs=3
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: $0 [--runs N] [-- lockbench pipeline options]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/lib.sh"
start_servers 1
for ((run = 0; run < runs; run++)); do
    "$lockbench" pipeline "${masters[@]}" "${extra[@]}"
done
