#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds LockScope and opens the window on its own demo cluster (5 local masters it starts and stops).
# Extra arguments go to lockscope, e.g. scripts/run.sh -m redis://127.0.0.1:6379
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
source scripts/ccache.sh
cmake -S . -B build -G Ninja "${flags[@]}" >/dev/null
cmake --build build --target lockscope lockctl
if (( $# )); then
    exec build/app/lockscope "$@"
fi
exec build/app/lockscope --demo
