#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds LockScope in Release (build-release) and makes its Debian package with CPack (DEB).
# The last line printed is the path of the .deb; install it with
#   sudo apt install ./build-release/package/lockscope_<version>_<arch>.deb
# Debian's hardening flags (dpkg-buildflags, hardening=+all) are used when dpkg-buildflags exists.
# LOCKSCOPE_BUILD_DIR picks another build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >&2

build=${LOCKSCOPE_BUILD_DIR:-build-release}
flags=(-DCMAKE_BUILD_TYPE=Release -DLOCKSCOPE_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr)
if command -v dpkg-buildflags >/dev/null 2>&1; then
    export DEB_BUILD_MAINT_OPTIONS=hardening=+all
    flags+=("-DCMAKE_CXX_FLAGS=$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)"
            "-DCMAKE_EXE_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)")
fi
source scripts/ccache.sh
cmake -S . -B "$build" -G Ninja "${flags[@]}" >&2
cmake --build "$build" >&2
# CPack installs the tree under /usr into a staging directory, strips the programs, computes the
# library dependencies (dpkg-shlibdeps) and writes the package into $build/package.
out=$(cd "$build" && cpack -B "$PWD/package")
printf '%s\n' "$out" >&2
deb=$(printf '%s\n' "$out" | sed -n 's/^CPack: - package: \(.*\) generated\.$/\1/p' | tail -n 1)
if [[ -z "$deb" || ! -f "$deb" ]]; then
    echo "package.sh: cpack wrote no package" >&2
    exit 1
fi
echo "$deb"
