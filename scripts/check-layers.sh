#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The architecture check (scripts/check-layers.py, allow-list in scripts/layers.conf), by the name CI uses.
exec python3 "$(dirname "$0")/check-layers.py" "$@"
