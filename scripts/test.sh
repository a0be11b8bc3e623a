#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds LockScope with its tests and runs the whole suite against real redis-server processes.
# Set LOCKSCOPE_SANITIZE=1 to run it under AddressSanitizer + UndefinedBehaviorSanitizer instead (in build-asan).
# Extra arguments go to ctest (e.g. -R fault). Tests run four at a time (-j4, three under the
# sanitizers; LOCKSCOPE_TEST_JOBS changes that): nearly all of them spend their time waiting on servers
# and timers, and the few that keep a core busy take two slots each (tests/testschedule.cmake), so two
# cores are not overcommitted.
# A skipped test fails the run: every skip in this suite means an install step is missing.
# --build-only configures and builds, and installs and runs nothing (.ci/run builds the sanitizer
# tree so, in the background, once the packages are in).
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [[ "${1:-}" == --build-only ]]; then
    build_only=1
    shift
fi
if ((!build_only)); then
    scripts/install-deps.sh --tests
    # The interop peers are pinned by the lockfile; without it the node cases would test whatever npm picks.
    if [[ ! -f tests/interop/package-lock.json ]]; then
        echo "tests/interop/package-lock.json is missing: the interop peers cannot be installed at pinned versions" >&2
        exit 1
    fi
    # --ignore-scripts: this runs as root in CI, and no pinned package needs an install script (none has
    # "hasInstallScript" in the lockfile); a compromised release of one could otherwise run code here.
    (cd tests/interop && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

build=build
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [[ "${LOCKSCOPE_SANITIZE:-0}" == 1 ]]; then
    build=build-asan
    # Line tables, not full debug information, as in the release pass (CMakeLists.txt): a report's
    # stack still names every function and line, and the pass compiles about a sixth faster (a test
    # unit: 8.0 s of CPU with -g, 6.6 s with -g1).
    flags=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DLOCKSCOPE_SANITIZE=ON -DLOCKSCOPE_BENCH=OFF)
    # Any report fails the test that caused it; leaks in system libraries are suppressed, not ours.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0}"
fi
source scripts/ccache.sh
if command -v ld.lld >/dev/null 2>&1; then
    # lld links each test program (the static core and ui with their debug information, ~90 MB) in a
    # third of the CPU time ld.bfd takes; a hundred-odd of them are linked in each build directory.
    flags+=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
fi
build=${LOCKSCOPE_BUILD_DIR:-$build} # another directory, e.g. to keep a developer's build apart
# The suite runs no benchmark: a new build directory (a fresh clone, CI) leaves them out, a tenth of
# its compiling; one configured before keeps its choice, and tests/bench/lib.sh turns them on.
[[ -f "$build/CMakeCache.txt" ]] || flags+=(-DLOCKSCOPE_BENCH=OFF)
cmake -S . -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build"
((build_only)) && exit 0
cd "$build"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# Under the sanitizers every test process burns two to three times the CPU, so "mostly waiting" holds
# less: three at a time there (four let product timeouts, a 2 s connect or a demo lock's lease,
# run out at the start of the pass, where the heaviest tests meet).
jobs=${LOCKSCOPE_TEST_JOBS:-4}
[[ "${LOCKSCOPE_SANITIZE:-0}" == 1 ]] && jobs=${LOCKSCOPE_TEST_JOBS:-3}
ctest --output-on-failure --timeout 900 -j"$jobs" "$@" | tee "$log" || status=$?
if grep -q '(Skipped)' "$log"; then
    echo "Skipped tests (above) count as failures here: a skip means something the suite needs is missing." >&2
    status=1
fi
exit "$status"
