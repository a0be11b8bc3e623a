#!/usr/bin/env bash
# Builds LockScope and opens the window on its own demo cluster (5 local masters it starts and stops).
# Extra arguments go to lockscope, e.g. scripts/run.sh -m redis://127.0.0.1:6379
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
    flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja "${flags[@]}" >/dev/null
cmake --build build --target lockscope lockctl
if (( $# )); then
    exec build/app/lockscope "$@"
fi
exec build/app/lockscope --demo
