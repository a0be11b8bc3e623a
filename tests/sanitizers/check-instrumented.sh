#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sanitizer build instruments the product (the core, the demo, the window's library, the
# programs), not the tests' own code (top CMakeLists.txt). Fails unless every object of each static
# library given carries AddressSanitizer's instrumentation and the library calls UBSan's checks, and
# unless each program given calls both.
#   check-instrumented.sh LIBRARY_OR_PROGRAM...
set -euo pipefail
status=0
for file in "$@"; do
    if [[ $file == *.a ]]; then
        objects=$(ar t "$file" | grep -c '\.o$' || true)
        symbols=$(nm -A "$file" 2>/dev/null || true)
        asan=$(grep -c ' U __asan_init$' <<<"$symbols" || true)
        ubsan=$( (grep ' U __ubsan_handle_' <<<"$symbols" || true) | cut -d: -f2 | sort -u | wc -l)
        echo "$(basename "$file"): $objects objects, $asan with ASan, $ubsan with UBSan checks"
        if ((objects == 0 || asan != objects || ubsan == 0)); then
            echo "  not instrumented throughout" >&2
            status=1
        fi
    else
        symbols=$(nm -D "$file")
        if ! grep -q ' U __asan_report_' <<<"$symbols" || ! grep -q ' U __ubsan_handle_' <<<"$symbols"; then
            echo "$(basename "$file"): not instrumented" >&2
            status=1
        else
            echo "$(basename "$file"): instrumented"
        fi
    fi
done
exit "$status"
