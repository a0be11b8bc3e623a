#!/usr/bin/env bash
# Shows that scripts/check-layers.sh really catches what it is for: on a copy of the tree it must pass,
# and each injected offence (one per copy) must fail it, naming the file:line and the rule broken.
#
#   tests/layers/check-layers-selftest.sh SOURCE_ROOT
set -euo pipefail
src=${1:?usage: $0 SOURCE_ROOT}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fresh() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree/scripts"
    cp -r "$src/core" "$src/demo" "$src/ui" "$src/app" "$work/tree/"
    cp "$src/scripts/check-layers.sh" "$work/tree/scripts/"
}

# inject FILE TEXT: TEXT becomes line 2 of FILE.
inject() { sed -i "1a $2" "$work/tree/$1"; }

# expect_failure NAME WHERE RULE: the checker fails and prints WHERE (file:line) with RULE on that line.
expect_failure() {
    local out status=0
    out=$(bash "$work/tree/scripts/check-layers.sh" "$work/tree" 2>&1) || status=$?
    if ((status == 0)); then
        echo "FAIL $1: the checker passed"
        failures=$((failures + 1))
    elif ! grep -F "$2" <<<"$out" | grep -qF "$3"; then
        echo "FAIL $1: no line with '$2' and '$3' in:"
        echo "$out"
        failures=$((failures + 1))
    else
        echo "ok   $1: $(grep -F "$2" <<<"$out" | head -n 1)"
    fi
}

fresh
if out=$(bash "$work/tree/scripts/check-layers.sh" "$work/tree" 2>&1); then
    echo "ok   clean copy passes"
else
    echo "FAIL clean copy: $out"
    exit 1 # every case below would prove nothing
fi

fresh
inject core/locking/redlock.cpp '#include "monitor/lockview.h"'
expect_failure "locking includes monitor" core/locking/redlock.cpp:2: "do not include each other"

fresh
inject core/monitor/lockmonitor.cpp '#include "locking/redlock.h"'
expect_failure "monitor includes locking" core/monitor/lockmonitor.cpp:2: "do not include each other"

fresh
inject core/base/result.h '#include "connection/redisurl.h"'
expect_failure "base includes a layer above" core/base/result.h:2: "connection/ is above base/"

fresh
inject core/discovery/keyreader.cpp '#include "redisconnection.h"'
expect_failure "bare core include" core/discovery/keyreader.cpp:2: "connection/redisconnection.h"

fresh
inject core/export/lockjson.cpp '#include "demosimulation.h"'
expect_failure "core includes the demo" core/export/lockjson.cpp:2: "core must not include the demo"

fresh
inject demo/demolab.cpp '#include "demopanel.h"'
expect_failure "demo includes the window" demo/demolab.cpp:2: "demo must not include the window"

fresh
inject app/lockctl/main.cpp '#include "demolab.h"'
expect_failure "lockctl includes the demo" app/lockctl/main.cpp:2: "lockctl must not include the demo"

fresh
sed -i 's/target_link_libraries(lockctl PRIVATE lockscope_core)/target_link_libraries(lockctl PRIVATE lockscope_core lockscope_demo)/' \
    "$work/tree/app/CMakeLists.txt"
grep -q 'lockscope_core lockscope_demo' "$work/tree/app/CMakeLists.txt" || {
    echo "FAIL could not inject lockscope_demo into lockctl's link line (app/CMakeLists.txt changed?)"
    exit 1
}
expect_failure "lockctl links the demo" app/CMakeLists.txt: "lockctl must not link the demo"

if ((failures)); then
    echo "$failures case(s) not caught"
    exit 1
fi
echo "all offences caught"
