# SPDX-License-Identifier: Apache-2.0
# The options of a benchmark script (source it before lib.sh, whose sourcing builds and starts things):
#   parse_options "[--count N] [--rounds R]" count rounds -- "$@"
# Each "--NAME VALUE" of a NAME given sets the variable NAME (dashes as underscores), or VAR for a
# name given as NAME=VAR; anything else prints "usage: SCRIPT" and the usage text, and exits 2.
parse_options() {
    local usage="$1" spec
    shift
    local -A variable=()
    while [[ $# -gt 0 && "$1" != -- ]]; do
        spec="$1"
        variable["${spec%%=*}"]="${spec#*=}"
        shift
    done
    shift
    while [[ $# -gt 0 ]]; do
        if [[ "$1" != --* || -z "${variable[${1#--}]:-}" || $# -lt 2 ]]; then
            echo "usage: $0 $usage" >&2
            exit 2
        fi
        printf -v "${variable[${1#--}]//-/_}" '%s' "$2"
        shift 2
    done
}

# For a benchmark that runs a test of the suite: sets `build` (LOCKSCOPE_BUILD, default the
# checkout's build/) and `suite` (its lockscope_coretests), building those and the TARGETS given
# when the program is missing.
#   use_suite [TARGET]...
use_suite() {
    build="${LOCKSCOPE_BUILD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build}"
    suite="$build/tests/lockscope_coretests"
    [[ -x "$suite" ]] || cmake --build "$build" --target lockscope_coretests "$@" >&2
}
