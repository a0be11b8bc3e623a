#!/usr/bin/env bash
# Builds LockScope with its tests and runs the whole suite against real redis-server processes.
# Set LOCKSCOPE_SANITIZE=1 to run it under AddressSanitizer + UndefinedBehaviorSanitizer instead (in build-asan).
# Extra arguments go to ctest (e.g. -R fault, -j2).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
if [[ -f tests/interop/package-lock.json ]]; then
    (cd tests/interop && npm ci --no-audit --no-fund --loglevel=error)
fi
build=build
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [[ "${LOCKSCOPE_SANITIZE:-0}" == 1 ]]; then
    build=build-asan
    flags=(-DCMAKE_BUILD_TYPE=Debug -DLOCKSCOPE_SANITIZE=ON -DLOCKSCOPE_BENCH=OFF)
    # Any report fails the test that caused it; leaks in system libraries are suppressed, not ours.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0}"
fi
build=${LOCKSCOPE_BUILD_DIR:-$build} # another directory, e.g. to keep a developer's build apart
cmake -S . -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build"
cd "$build"
ctest --output-on-failure --timeout 900 "$@"
