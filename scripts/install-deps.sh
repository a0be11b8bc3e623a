#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what LockScope needs to build, run and test on Debian 12, and nothing that is already there.
# Usage: scripts/install-deps.sh [--tests]
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config git
          qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite libqt6sql6-psql libsqlite3-dev libgl1-mesa-dev qtkeychain-qt6-dev libsecret-1-0
          qt6-svg-dev qt6-charts-dev libqt6opengl6-dev libhiredis-dev qt6-httpserver-dev qt6-websockets-dev redis-server redis-tools openssl ccache)
if [[ "${1:-}" == "--tests" ]]; then
    # python3-redis writes interop locks; clang builds the libFuzzer targets; xvfb and imagemagick take
    # screenshots; a private D-Bus and gnome-keyring are the real Secret Service the keychain test uses;
    # notification-daemon (on that bus, on an Xvfb display) is the real notification service;
    # prometheus (server and promtool) scrapes `lockctl serve` and checks the shipped alert rules.
    # lld: scripts/test.sh links with it when it is there (a third of ld.bfd's time per test program).
    # python3: the architecture check (scripts/architecture/check-layers.py) and its self-test.
    packages+=(python3 python3-redis clang libclang-rt-14-dev lld xvfb xauth imagemagick dbus-daemon dbus-bin gnome-keyring
              notification-daemon prometheus)
    # postgresql: the team database tests start a cluster of their own (initdb, a free loopback port).
    packages+=(postgresql)
    # The package test (tests/package) checks the .deb as Debian would, and drives the completions.
    packages+=(lintian desktop-file-utils appstream zsh bash-completion man-db)
    command -v node >/dev/null 2>&1 || packages+=(nodejs)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
    echo "Installing: ${missing[*]}"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Valkey 8 beside Redis 7 for the compatibility tests (the `valkey` label): Debian 12 has it only in
# bookworm-backports. That suite is added for valkey-server and valkey-tools alone: everything else
# in it is pinned to -1 (never installed), so nothing of the system is upgraded. Its package service
# is not started (policy-rc.d): the tests start their own servers on free ports.
if [[ "${1:-}" == "--tests" ]] && ! command -v valkey-server >/dev/null 2>&1; then
    echo "Installing: valkey-server valkey-tools (bookworm-backports)"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo tee /etc/apt/sources.list.d/lockscope-bookworm-backports.sources >/dev/null <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    $sudo tee /etc/apt/preferences.d/lockscope-bookworm-backports >/dev/null <<'PINS'
Package: *
Pin: release n=bookworm-backports
Pin-Priority: -1

Package: valkey-server valkey-tools
Pin: release n=bookworm-backports
Pin-Priority: 500
PINS
    policy_rc=/usr/sbin/policy-rc.d
    added_policy=0
    if [[ ! -e $policy_rc ]]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy_rc" >/dev/null
        $sudo chmod 755 "$policy_rc"
        added_policy=1
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends valkey-server valkey-tools >/dev/null ||
        status=$?
    (( added_policy )) && $sudo rm -f "$policy_rc"
    if [[ ${status:-0} != 0 ]]; then
        echo "install-deps.sh: valkey-server could not be installed from bookworm-backports" >&2
        exit "$status"
    fi
fi
