#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target for a bounded time over its committed seed corpus (read-only: what the
# run discovers goes to a scratch directory) and fails on any crash, leak, UBSan report or broken
# invariant. Prints the executions, for the test log.
# Usage: run-fuzzer.sh FUZZER SEED_CORPUS SECONDS [KEEP_DIR]
# A failure's whole log and its reproducers are also copied to KEEP_DIR, named by target and time:
# CTest's own log of a test is overwritten by the next run of it, and a rare failure must outlive
# the rerun that passes.
set -euo pipefail
fuzzer=$(realpath "$1") seeds=$(realpath "$2") seconds=$3 keep=${4:-}
scratch=$(mktemp -d)
mkdir "$scratch/corpus"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" # crash-* reproducers land here; they are printed below
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    "$scratch/corpus" "$seeds" >"$scratch/log" 2>&1 || status=$?
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$scratch/log" || true
if (( status != 0 )); then
    if [[ -n "$keep" ]]; then
        kept="$keep/$(basename "$fuzzer")-$(date -u +%Y%m%dT%H%M%S)-$$"
        mkdir -p "$kept"
        cp "$scratch/log" "$kept/log"
        cp "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-* "$kept/" 2>/dev/null || true
        echo "whole log and reproducers kept in $kept"
    fi
    tail -60 "$scratch/log"
    for f in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
        [[ -e "$f" ]] && { echo "reproducer $(basename "$f"):"; base64 -w0 "$f"; echo; }
    done
    exit "$status"
fi
echo "$(basename "$fuzzer"): no crash in ${seconds}s"
