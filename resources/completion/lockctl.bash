# SPDX-License-Identifier: Apache-2.0
# bash completion for lockctl(1)                                  -*- shell-script -*-
# Commands and options come from `lockctl --help` itself, so they never go stale; the resources of
# acquire/extend/release/force-release/hold come from a live `lockctl --json list` when the line
# names masters (-m URL or --config FILE), with the line's own connection options.

# The help of the lockctl being completed, parsed once per program path:
# _lockctl_commands (names), _lockctl_globals (option names), _lockctl_valued (options that take a
# value, space-separated), _lockctl_resourced (commands whose first argument is a RESOURCE), and
# _lockctl_opts_<command> (that command's options).
_lockctl_parse_help()
{
    local program=$1
    [[ ${_lockctl_parsed-} == "$program" ]] && return 0
    local help
    help=$("$program" --help 2>/dev/null) || return 1
    _lockctl_commands=() _lockctl_globals=() _lockctl_valued=" " _lockctl_resourced=" "
    local part= line name words w i
    while IFS= read -r line; do
        case $line in
        "Commands:") part=commands; continue ;;
        "Global options:") part=globals; continue ;;
        "  "[!\ ]*) ;;
        "      "*) continue ;; # a description
        *) part=; continue ;;
        esac
        # Brackets, parentheses, "|", "..." and commas out: what is left is names and value names.
        line=${line//[\[\]\(\)\|,]/ }
        line=${line//.../ }
        read -r -a words <<<"$line"
        if [[ $part == commands ]]; then
            name=${words[0]}
            _lockctl_commands+=("$name")
            [[ ${words[1]-} == RESOURCE ]] && _lockctl_resourced+="$name "
            local opts=()
            for ((i = 1; i < ${#words[@]}; i++)); do
                w=${words[i]}
                [[ $w == -?* && $w != -- ]] || continue
                opts+=("$w")
                [[ ${words[i + 1]-} == [A-Z]* ]] && _lockctl_valued+="$w "
            done
            eval "_lockctl_opts_${name//-/_}=(\"\${opts[@]}\")"
        elif [[ $part == globals ]]; then
            # "-m, --master URL": every name of the line takes the value.
            for w in "${words[@]}"; do
                [[ $w == -* ]] || continue
                _lockctl_globals+=("$w")
                [[ ${words[${#words[@]} - 1]} == [A-Z]* ]] && _lockctl_valued+="$w "
            done
        fi
    done <<<"$help"
    _lockctl_parsed=$program
}

# The resources a live `lockctl --json list` sees, with the connection options given on the line.
_lockctl_live_resources()
{
    local program=$1
    shift
    local args=() has_masters= i w
    local words=("$@")
    for ((i = 0; i < ${#words[@]}; i++)); do
        w=${words[i]}
        case $w in
        -m | --master | --config) has_masters=1 ;;
        --master=* | --config=*) has_masters=1 ;;
        esac
        case $w in
        --json | --help | -h | --version | --color | --color=*) continue ;;
        esac
        if [[ " ${_lockctl_globals[*]} " == *" ${w%%=*} "* ]]; then
            args+=("$w")
            if [[ $w != *=* && $_lockctl_valued == *" $w "* ]] && ((i + 1 < ${#words[@]})); then
                args+=("${words[i + 1]}")
                ((i++))
            fi
        fi
    done
    [[ -n $has_masters ]] || return 0
    [[ " ${args[*]} " == *" --timeout-ms "* ]] || args+=(--timeout-ms 1000)
    local runner=()
    command -v timeout >/dev/null 2>&1 && runner=(timeout 5)
    # One JSON line; each lock has "resource":"<escaped name>", JSON-quoted once more.
    "${runner[@]}" "$program" "${args[@]}" --json list 2>/dev/null </dev/null |
        grep -o '"resource":"\([^"\\]\|\\.\)*"' |
        sed -e 's/^"resource":"//' -e 's/"$//' -e 's/\\\(.\)/\1/g' | sort -u
}

_lockctl()
{
    local program=${COMP_WORDS[0]}
    _lockctl_parse_help "$program" || return 0

    # Words as the user typed them: bash splits "redis://h:6379" and "lock:a" at ':' and
    # "--color=auto" at '='; glue them back.
    local words=() cword=0 i w glue=
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        if ((i > 0)) && [[ $w == : || $w == = || -n $glue ]]; then
            words[${#words[@]} - 1]+=$w
            [[ $w == : || $w == = ]] && glue=1 || glue=
        else
            words+=("$w")
            glue=
        fi
        ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
    done
    local cur=${words[cword]-} prev=
    ((cword > 0)) && prev=${words[cword - 1]}
    # What bash replaces is only the part after the last ':' or '=' of the current word.
    local keep=
    [[ $cur == *[:=]* && $COMP_WORDBREAKS == *:* ]] && keep=${cur%"${cur##*[:=]}"}

    # The command: the first word that is not an option or an option's value.
    local command= position=0
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        if [[ $w == -* ]]; then
            [[ $w != *=* && $_lockctl_valued == *" $w "* ]] && ((i++))
        elif [[ -z $command ]]; then
            command=$w
        else
            ((position++))
        fi
        [[ $w == -- && -n $command ]] && return 0 # hold's COMMAND: the shell's own completion
    done

    local option=$prev value=$cur
    if [[ $cur == --*=* ]]; then
        option=${cur%%=*} value=${cur#*=}
    elif [[ $_lockctl_valued != *" $prev "* || $prev == "" ]]; then
        option=
    fi
    local candidates=()
    if [[ -n $option ]]; then
        case $option in
        --config | --tls-ca | --tls-cert | --tls-key | --audit-log)
            mapfile -t COMPREPLY < <(compgen -f -- "$value")
            return 0
            ;;
        --password-env) mapfile -t candidates < <(compgen -e -- "$value") ;;
        --color) mapfile -t candidates < <(compgen -W "auto always never" -- "$value") ;;
        -m | --master)
            mapfile -t candidates < <(compgen -W "redis:// rediss:// unix:// redis-sentinel:// rediss-sentinel:// redis-cluster:// rediss-cluster://" -- "$value")
            ;;
        *) return 0 ;;
        esac
        keep=${cur%"$value"}
        [[ $COMP_WORDBREAKS == *=* && $cur == --*=* ]] && keep=
        [[ $option == -m || $option == --master ]] && keep=${value%"${value##*:}"}
    elif [[ $cur == -* ]]; then
        local opts=("${_lockctl_globals[@]}")
        if [[ -n $command ]]; then
            local name="_lockctl_opts_${command//-/_}[@]"
            opts+=("${!name}")
        fi
        mapfile -t candidates < <(compgen -W "${opts[*]}" -- "$cur" | sort -u)
    elif [[ -z $command ]]; then
        mapfile -t candidates < <(compgen -W "${_lockctl_commands[*]}" -- "$cur")
    elif ((position == 0)) && [[ $_lockctl_resourced == *" $command "* ]]; then
        local r
        while IFS= read -r r; do
            [[ $r == "$cur"* ]] && candidates+=("$r")
        done < <(_lockctl_live_resources "$program" "${words[@]:1}")
    fi
    COMPREPLY=()
    # A resource is a key a server chose, so it is quoted unless every character is one the shell
    # takes as it is: listing the dangerous ones instead missed ';', '{', '#' and more (#39), and a
    # key like "lock:a;{touch,x};#" then ran a command when the operator pressed Enter. The letters
    # are spelt out because a range such as a-z may take in other characters in some locales.
    local safe='ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+,=-'
    local c
    for c in "${candidates[@]}"; do
        # Bash replaces only what follows the last ':' or '=' of the word: the quoted rest, glued
        # to the typed part, is still one word with exactly the name's bytes.
        c=${c#"$keep"}
        [[ $c == *[!$safe]* ]] && c=$(printf '%q' "$c")
        COMPREPLY+=("$c")
    done
}

complete -F _lockctl lockctl
