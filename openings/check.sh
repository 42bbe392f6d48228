#!/usr/bin/env bash
# Balanced 15x15 openings: generate candidates, or check a file of them.
#
#   openings/check.sh generate N SEED            > candidates.txt
#   openings/check.sh check BENCH FILE [MS] [JOBS] > scored.txt
#
# `check` scores every opening of FILE with BENCH's `alphabeta` searching
# MS milliseconds (default 10000), JOBS at a time, and prints each line
# with its value for the side to move (`bench openings --score`); lines
# whose |value| exceeds the value of one open three are commented out with
# '# unbalanced'. The value of one open three is the rules' evaluation of
# X's open three (h8 i8 g8, O to move) against the same stones with the
# third away from the others. Exit status 1 if any line is unbalanced.
# It reads the '# value' comments of a file it wrote itself. RULES in the
# environment names the rules (15,15,5 by default): openings/renju15.txt
# is `generate 100 7` checked with RULES=15,15,5,renju, 2500 ms, 2 jobs.
set -euo pipefail

RULES=${RULES:-15,15,5}
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

check() {
    local bench=$1 file=$2 ms=${3:-10000} jobs=${4:-1}
    # The bench app scores each opening (and reads the comments this
    # script writes); nothing else is needed.
    "$bench" openings --rules "$RULES" --score "$file" --ms "$ms" --threads "$jobs"
}

case ${1:-} in
    generate) generate "$2" "$3" ;;
    check) check "$2" "$3" "${4:-10000}" "${5:-1}" ;;
    *) echo "usage: $0 generate N SEED | check BENCH FILE [MS] [JOBS]" >&2; exit 2 ;;
esac
