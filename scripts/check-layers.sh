#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The architecture check by the name CI and the hooks use: scripts/architecture/check-layers.py, which
# reads its allow-list from scripts/architecture/layers.conf.
exec python3 "$(dirname "$0")/architecture/check-layers.py" "$@"
