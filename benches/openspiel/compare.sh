#!/usr/bin/env bash
# Classic UCB1 MCTS, one thread, one random rollout per simulation, from
# the empty board: OpenSpiel's C++ MCTSBot (through pyspiel) against ours
# (`bench mcts`), measured in the same run, as simulations per second.
#
#   bash benches/openspiel/compare.sh [simulations-3x3] [simulations-15x15]
#
# Installs the pip package open-spiel into target/openspiel-venv (nothing
# is assumed installed). Not part of CI: it downloads a large wheel.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/target/openspiel-venv"
small="${1:-200000}"
large="${2:-20000}"

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

printf '%-10s %14s %14s %8s\n' board openspiel ours ratio
for case in "tic_tac_toe 3,3,3 $small" "gomoku 15,15,5 $large"; do
    set -- $case
    theirs=$(openspiel "$1" "$3")
    mine=$(ours "$2" "$3")
    "$venv/bin/python" -c "print(f'{\"$2\":<10} {float($theirs):14,.0f} {float($mine):14,.0f} {float($mine)/float($theirs):7.1f}x')"
done
