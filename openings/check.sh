#!/usr/bin/env bash
# Balanced 15x15 openings: make candidates, or judge a file of them.
#
#   openings/check.sh generate BENCH N SEED              > candidates.txt
#   openings/check.sh check BENCH FILE [MS] [JOBS] [ENGINE] > scored.txt
#
# `generate` prints N distinct openings of two and three stones within 3
# of the centre (one of each class the board's symmetries map onto each
# other), drawn by SEED (`bench openings --candidates`); asking for more
# than there are is an error that says how many there are.
#
# `check` scores every opening of FILE with ENGINE (default `alphabeta`;
# any roster spec, such as `external:path=BRAIN` for a Gomocup brain, whose
# value is read from its MESSAGE lines) searching MS milliseconds (default
# 10000), JOBS at a time, and prints each line with its value for X
# (`bench openings --score`). With BOUND in the environment (such as
# `0.4,0.6`) the lines whose winning chance for X, 1/(1+e^(-v/SCALE))
# with SCALE from the environment (default 200), lies outside it are
# commented out as unbalanced; without it, those beyond the value of one
# open three to our own evaluation. Exit status 1 if any line is
# unbalanced. Lines commented out are skipped when a file is scored
# again, so a second, longer check judges only the survivors of the first.
#
# openings/gomoku15.txt was made so (see its header):
#   check.sh generate BENCH 1500 1 > c.txt
#   BOUND=0.4,0.6 check.sh check BENCH c.txt 1000 2 external:path=BRAIN > s1.txt
#   BOUND=0.4,0.6 check.sh check BENCH s1.txt 5000 2 external:path=BRAIN > s2.txt
# RULES in the environment names the rules (15,15,5 by default).
# openings/renju15.txt was made from candidates of `bench openings --rules
# renju --extend renju26 --lines K` (the 26 standard openings two moves on),
# checked so with RULES=15,15,5,renju (see its header).
set -euo pipefail

RULES=${RULES:-15,15,5}

generate() {
    local bench=$1 count=$2 seed=$3
    "$bench" openings --rules "$RULES" --candidates "$count" --radius 3 --seed "$seed"
}

check() {
    local bench=$1 file=$2 ms=$3 jobs=$4 engine=$5
    local bound=()
    if [ -n "${BOUND:-}" ]; then bound=(--chance "$BOUND" --scale "${SCALE:-200}"); fi
    "$bench" openings --rules "$RULES" --score "$file" --engine "$engine" --ms "$ms" --threads "$jobs" "${bound[@]}"
}

case ${1:-} in
    generate) generate "$2" "$3" "$4" ;;
    check) check "$2" "$3" "${4:-10000}" "${5:-1}" "${6:-alphabeta}" ;;
    *) echo "usage: $0 generate BENCH N SEED | check BENCH FILE [MS] [JOBS] [ENGINE]" >&2; exit 2 ;;
esac
