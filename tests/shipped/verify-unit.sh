#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# resources/systemd/lockscope-serve.service as systemd itself reads it: `systemd-analyze verify` with no
# error and no warning (unknown keys are only warnings there), then `systemd-analyze security` with an
# exposure of at most 2.0 ("OK"). The copy checked names the built lockctl, since verify wants the
# ExecStart binary to exist and /usr/bin/lockctl is only there once the package is installed.
#   verify-unit.sh UNIT LOCKCTL
set -euo pipefail
unit="$1"
lockctl="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
copy="$dir/$(basename "$unit")"
sed "s|/usr/bin/lockctl|$lockctl|" "$unit" >"$copy"
grep -q "ExecStart=$lockctl " "$copy" || { echo "verify-unit: no ExecStart=/usr/bin/lockctl in $unit" >&2; exit 1; }
# --man=no: the Documentation= man page is only installed with the package.
out="$(systemd-analyze verify --man=no "$copy" 2>&1)" || { echo "$out" >&2; exit 1; }
if [[ -n "$out" ]]; then
    echo "systemd-analyze verify warned:" >&2
    echo "$out" >&2
    exit 1
fi
systemd-analyze security --offline=yes --threshold=20 --no-pager "$copy" | tail -1
