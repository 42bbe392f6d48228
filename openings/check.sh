#!/usr/bin/env bash
# Balanced 15x15 openings: generate candidates, or check a file of them.
#
#   openings/check.sh generate N SEED            > candidates.txt
#   openings/check.sh check BENCH FILE [MS] [JOBS] > scored.txt
#
# `check` scores every opening of FILE with BENCH's `alphabeta` searching
# MS milliseconds (default 10000), and prints each line with its value for
# the side to move; lines whose |value| exceeds the value of one open three
# are commented out with '# unbalanced'. The value of one open three is
# measured with the same engine: the depth-1 score of making an open three
# (X: h8 i8, O far away, X to move: g8) minus that of the best quiet move.
# Exit status 1 if any line is unbalanced.
set -euo pipefail

RULES=15,15,5
SIZE=15

# The one-line form of a list of moves such as `h8 i9 g7` (X first).
one_line() {
    local -A marks=()
    local side=x
    for move in "$@"; do
        local col=${move:0:1} row=${move:1}
        local x=$(( $(printf '%d' "'$col") - 97 )) y=$(( row - 1 ))
        marks[$x,$y]=$side
        if [ $side = x ]; then side=o; else side=x; fi
    done
    local rows=()
    for (( y = SIZE - 1; y >= 0; y-- )); do
        local line=""
        for (( x = 0; x < SIZE; x++ )); do line+=${marks[$x,$y]:-.}; done
        rows+=("$line")
    done
    local IFS=/
    echo "${rows[*]}"
}

generate() {
    local count=$1 seed=$2
    RANDOM=$seed
    local -A seen=()
    local made=0
    while (( made < count )); do
        local stones=$(( 2 + RANDOM % 2 )) moves=() used=" "
        while (( ${#moves[@]} < stones )); do
            local x=$(( 7 - 2 + RANDOM % 5 )) y=$(( 7 - 2 + RANDOM % 5 ))
            local name
            name=$(printf "\\$(printf '%03o' $(( 97 + x )))")$(( y + 1 ))
            case $used in *" $name "*) continue ;; esac
            used+="$name "
            moves+=("$name")
        done
        local key="${moves[*]}"
        [ -n "${seen[$key]:-}" ] && continue
        seen[$key]=1
        echo "$key"
        made=$(( made + 1 ))
    done
}

value_of() { # BENCH POSITION ARGS... -> the engine's value for the side to move
    local bench=$1 position=$2
    shift 2
    "$bench" analyze --rules $RULES --position "$position" --engine alphabeta "$@" --json | jq -r '.value'
}

open_three_value() {
    local bench=$1
    local json
    json=$("$bench" analyze --rules $RULES --position "$(one_line h8 a1 i8 o15)" --engine alphabeta --depth 1 --json)
    echo "$json" | jq -r '[.scores.g8, ([.scores | to_entries[] | select(.key != "g8" and .key != "j8" and .key != "f8" and .key != "k8") | .value] | max)] | (.[0] - .[1]) | fabs'
}

check() {
    local bench=$1 file=$2 ms=${3:-10000} jobs=${4:-1}
    local three
    three=$(open_three_value "$bench")
    echo "# scored by: $bench alphabeta, ${ms} ms; one open three = $three"
    local bad=0
    export -f one_line value_of
    export RULES SIZE
    while read -r line; do
        case $line in ''|'#'*) continue ;; esac
        echo "$line"
    done < "$file" | xargs -P "$jobs" -I{} bash -c '
        set -euo pipefail
        moves="{}"
        v=$(value_of "$0" "$(one_line $moves)" --ms "$1")
        echo "$moves|$v"' "$bench" "$ms" > "$file.scored.tmp"
    while IFS='|' read -r moves v; do
        local magnitude=${v#-}
        if awk -v a="$magnitude" -v b="$three" 'BEGIN { exit !(a <= b) }'; then
            echo "$moves # value $v"
        else
            echo "# unbalanced: $moves # value $v"
            bad=1
        fi
    done < "$file.scored.tmp"
    rm -f "$file.scored.tmp"
    return $bad
}

case ${1:-} in
    generate) generate "$2" "$3" ;;
    check) check "$2" "$3" "${4:-10000}" "${5:-1}" ;;
    *) echo "usage: $0 generate N SEED | check BENCH FILE [MS] [JOBS]" >&2; exit 2 ;;
esac
