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

# offence NAME FILE TEXT RULE: on a fresh copy, TEXT as line 2 of FILE must fail the checker at FILE:2 with RULE.
offence() {
    fresh
    inject "$2" "$3"
    expect_failure "$1" "$2:2:" "$4"
}

offence "locking includes monitor" core/locking/redlock.cpp '#include "monitor/lockview.h"' "do not include each other"
offence "monitor includes locking" core/monitor/lockmonitor.cpp '#include "locking/redlock.h"' "do not include each other"
offence "base includes a layer above" core/base/result.h '#include "connection/redisurl.h"' "connection/ is above base/"
offence "bare core include" core/discovery/keyreader.cpp '#include "redisconnection.h"' "connection/redisconnection.h"
offence "core includes the demo" core/export/lockjson.cpp '#include "demosimulation.h"' "core must not include the demo"
offence "demo includes the window" demo/demolab.cpp '#include "demopanel.h"' "demo must not include the window"
offence "lockctl includes the demo" app/lockctl/main.cpp '#include "demolab.h"' "lockctl must not include the demo"

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
