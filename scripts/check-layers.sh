#!/usr/bin/env bash
# Checks that includes point down the layers (README "Architecture") and that lockctl does not link the
# demo. Prints each offence as file:line: rule, and exits 1 if there is any.
#
#   scripts/check-layers.sh [--build DIR] [ROOT]
#
# ROOT is the source tree (default: this checkout). With --build, the link line ninja would run for
# lockctl is checked too (the real one, after CMake); without it, app/CMakeLists.txt is read.
set -euo pipefail

build=
root=
while (($#)); do
    case $1 in
    --build) build=$2; shift 2 ;;
    -h | --help) sed -n '2,8p' "$0"; exit 0 ;;
    *) root=$1; shift ;;
    esac
done
root=${root:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# The core's layers, bottom up: a folder may include its own files and those of the folders before it.
layers=(base connection formats topology audit config discovery monitor locking export record diagnosis metrics)
# ...except these pairs, which stand side by side and must not include each other.
excluded=("monitor locking")

declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

status=0
fail() { # file line rule
    echo "$1:$2: $3"
    status=1
}

excluded_pair() {
    local pair
    for pair in "${excluded[@]}"; do
        [[ "$pair" == "$1 $2" || "$pair" == "$2 $1" ]] && return 0
    done
    return 1
}

# Header names of each front part, to tell "demopanel.h" (ui) from "democlient.h" (demo).
declare -A in_demo in_ui core_base
for f in demo/*.h; do [[ -e $f ]] && in_demo[${f#demo/}]=1; done
for f in ui/*.h ui/*/*.h; do [[ -e $f ]] && in_ui[${f##*/}]=1; done
for f in core/*/*.h; do [[ -e $f ]] && core_base[${f##*/}]=${f#core/}; done

# What the including file is: a core layer, demo, ui, lockctl, lockscope (the window's main) or other.
# Sets `part` rather than printing it: a command substitution forks once per include, and on a loaded
# two-core machine a few thousand forks took minutes.
part_of() {
    case $1 in
    core/*/*) local rest=${1#core/}; part="core:${rest%%/*}" ;;
    demo/*) part=demo ;;
    ui/*) part=ui ;;
    app/lockctl/*) part=lockctl ;;
    app/*) part=app ;;
    *) part=other ;;
    esac
}

check_include() { # file line from target
    local file=$1 line=$2 from=$3 target=$4
    local dir=${target%%/*}
    if [[ $target == */* && -n "${rank[$dir]+x}" ]]; then
        # A core header, named by its layer.
        case $from in
        core:*)
            local own=${from#core:}
            if [[ -z "${rank[$own]+x}" ]]; then
                fail "$file" "$line" "core/$own is not a layer of scripts/check-layers.sh (add it to 'layers')"
            elif [[ $own != "$dir" ]] && excluded_pair "$own" "$dir"; then
                fail "$file" "$line" "$own/ must not include $target: $own/ and $dir/ do not include each other"
            elif ((rank[$dir] > rank[$own])); then
                fail "$file" "$line" "$own/ must not include $target: $dir/ is above $own/ (order: ${layers[*]})"
            fi
            ;;
        esac
        return
    fi
    [[ $target == */* ]] && return # a path of another kind (Qt, system, tests)
    # A bare name: which part does it belong to?
    if [[ -n "${core_base[$target]+x}" ]]; then
        fail "$file" "$line" "a core header is included by its layer: #include \"${core_base[$target]}\""
        return
    fi
    local own_dir=${file%/*}
    [[ -e "$own_dir/$target" ]] && local local_hit=1 || local local_hit=0
    case $from in
    core:*)
        if ((!local_hit)) && [[ -n "${in_demo[$target]+x}" ]]; then
            fail "$file" "$line" "core must not include the demo ($target)"
        elif ((!local_hit)) && [[ -n "${in_ui[$target]+x}" ]]; then
            fail "$file" "$line" "core must not include the window ($target)"
        fi
        ;;
    demo)
        if ((!local_hit)) && [[ -n "${in_ui[$target]+x}" ]]; then
            fail "$file" "$line" "demo must not include the window ($target): ui/ is above demo/"
        fi
        ;;
    lockctl)
        if ((!local_hit)) && [[ -n "${in_demo[$target]+x}" ]]; then
            fail "$file" "$line" "lockctl must not include the demo ($target)"
        elif ((!local_hit)) && [[ -n "${in_ui[$target]+x}" ]]; then
            fail "$file" "$line" "lockctl must not include the window ($target)"
        fi
        ;;
    esac
}

while IFS= read -r hit; do
    # hit: path:line:#include "target"
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    target=${rest#*:}
    target=${target#*\"}
    target=${target%%\"*}
    part_of "$file"
    check_include "$file" "$line" "$part" "$target"
done < <(grep -rnE --include='*.h' --include='*.cpp' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
    core demo ui app tests 2>/dev/null | grep -v '^tests/interop/node_modules/' || true)

# lockctl must not link the demo (or the window): it is the headless tool.
linkcheck() { # file line text
    if grep -qE 'lockscope_(demo|ui)' <<<"$3"; then
        fail "$1" "$2" "lockctl must not link the demo or the window library"
    fi
}
while IFS= read -r hit; do
    linkcheck app/CMakeLists.txt "${hit%%:*}" "${hit#*:}"
done < <(awk '/target_link_libraries\(lockctl/ { on = 1 } on { print NR ":" $0 } on && /\)/ { on = 0 }' app/CMakeLists.txt)
# The core's own link line: lockctl links the core, so the core linking the demo is the same offence.
while IFS= read -r hit; do
    if grep -qE 'lockscope_(demo|ui)' <<<"${hit#*:}"; then
        fail core/CMakeLists.txt "${hit%%:*}" "the core must not link the demo or the window library (lockctl links the core)"
    fi
done < <(grep -rn 'target_link_libraries' core --include=CMakeLists.txt | sed 's/^core\/CMakeLists.txt://' || true)
if [[ -n $build ]]; then
    if ! command -v ninja >/dev/null || [[ ! -f $build/build.ninja ]]; then
        echo "--build $build: no ninja build there" >&2
        exit 2
    fi
    link=$(ninja -C "$build" -t commands lockctl | tail -n 1)
    if grep -qE 'liblockscope_(demo|ui)\.a' <<<"$link"; then
        fail "$build/build.ninja" 0 "lockctl's link line links the demo or the window library: $link"
    fi
fi

if ((status)); then
    echo "check-layers: the offences above break README \"Architecture\"" >&2
else
    echo "check-layers: includes follow the layers (${layers[*]}; demo above the core; ui above both); lockctl links no demo"
fi
exit "$status"
