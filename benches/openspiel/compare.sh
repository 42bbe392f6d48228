#!/usr/bin/env bash
# Classic UCB1 MCTS, one thread, one random rollout per simulation, from
# the empty board: OpenSpiel's C++ MCTSBot (through pyspiel) against ours
# (`bench mcts`), as simulations per second. Each side warms up and then
# reports the median of 5 searches; the two alternate in PAIRS pairs
# (default 3), and the median of the pairs' ratios is the figure: the
# machine is shared and noisy, so a ratio is only read within a pair.
#
#   bash benches/openspiel/compare.sh [simulations-3x3] [simulations-15x15] [pairs]
#
# Installs the pip package open-spiel into target/openspiel-venv (nothing
# is assumed installed). Not part of CI: it downloads a large wheel.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/target/openspiel-venv"
small="${1:-200000}"
large="${2:-20000}"
pairs="${3:-3}"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet "open-spiel==2.0.2" numpy
fi
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p bench

openspiel() {
    "$venv/bin/python" "$root/benches/openspiel/mcts_rate.py" "$@"
}
ours() {
    "$root/target/release/bench" mcts --rules "$1" --iterations "$2" --json |
        "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["iterations_per_second"])'
}

printf '%-10s %5s %14s %14s %8s\n' board pair openspiel ours ratio
for case in "tic_tac_toe 3,3,3 $small" "gomoku 15,15,5 $large"; do
    set -- $case
    ratios=""
    for pair in $(seq 1 "$pairs"); do
        theirs=$(openspiel "$1" "$3")
        mine=$(ours "$2" "$3")
        ratio=$("$venv/bin/python" -c "print(float($mine)/float($theirs))")
        ratios="$ratios $ratio"
        "$venv/bin/python" -c "print(f'{\"$2\":<10} {$pair:5} {float($theirs):14,.0f} {float($mine):14,.0f} {float($ratio):7.2f}x')"
    done
    "$venv/bin/python" -c "import statistics; print(f'{\"$2\":<10} median of the pairs: {statistics.median([$(echo $ratios | tr ' ' ',')]):.2f}x')"
done
