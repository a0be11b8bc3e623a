# SPDX-License-Identifier: Apache-2.0
# Shared by compare.sh and ui-compare.sh (source it): BASE_COMMIT's worktree beside this checkout and
# both built alike, so that what differs between the two programs is the commits.
#   two_builds BASE_COMMIT BUILD_TYPE GUI BASE_BUILD_NAME HEAD_BUILD_NAME TARGET...
# GUI is ON or OFF. BASE_COMMIT is checked out once into build-compare-SHA/src (the worktree both
# scripts share) and built in build-compare-SHA/BASE_BUILD_NAME; this checkout is built in
# HEAD_BUILD_NAME (under the checkout). Sets base_build and head_build; each build goes through ccache
# when there is one, and is kept for the next run.
two_builds() {
    local base_rev="$1" type="$2" gui="$3" base_name="$4" head_name="$5"
    shift 5
    local here base_sha base_tree
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    base_sha="$(git -C "$here" rev-parse --verify "$base_rev^{commit}")"
    base_tree="$here/build-compare-${base_sha:0:12}"
    if [[ ! -d "$base_tree/src" ]]; then
        git -C "$here" worktree add --detach "$base_tree/src" "$base_sha" >&2
    fi
    base_build="$base_tree/$base_name"
    head_build="$here/$head_name"
    local flags=(-DCMAKE_BUILD_TYPE="$type" -DLOCKSCOPE_GUI="$gui" -DLOCKSCOPE_BENCH=ON -DLOCKSCOPE_FUZZ=OFF)
    command -v ccache >/dev/null && flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$base_tree/src" -B "$base_build" -G Ninja "${flags[@]}" >/dev/null
    cmake --build "$base_build" --target "$@" >&2
    cmake -S "$here" -B "$head_build" -G Ninja "${flags[@]}" >/dev/null
    cmake --build "$head_build" --target "$@" >&2
}
