#!/usr/bin/env bash
# Builds LockScope with its tests and runs the whole suite against real redis-server processes.
# Set LOCKSCOPE_SANITIZE=1 to run it under AddressSanitizer + UndefinedBehaviorSanitizer instead.
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
    flags=(-DCMAKE_BUILD_TYPE=Debug -DLOCKSCOPE_SANITIZE=ON)
fi
cmake -S . -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build"
cd "$build"
ctest --output-on-failure --timeout 900 "$@"
