//! The classic minimax players as described, with the open-lines
//! evaluation (pattern-eval) in minimax-tree's searches: the minimax over
//! the symmetric tree against a plain, separate implementation of the same
//! description on the real board (every non-final tic-tac-toe position,
//! every move's value, and the move chosen), and both classic players'
//! wins and blocks.

use std::collections::HashSet;
use std::sync::Arc;

use board::{Position, Rules, Side};
use minimax_tree::{
    CLASSIC_DEPTH, CLASSIC_TREE_DEPTH, Candidates, MinimaxAgent, SymmetricTree, TreeChoice, TreeMinimax,
    minimax,
};
use pattern_eval::OpenLines;
use play::{Agent, Limits};

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A board as nine cells, row by row: 0 empty, 1 X, 2 O.
type Board = [u8; 9];

fn winner(board: &Board) -> Option<u8> {
    LINES
        .iter()
        .find(|line| board[line[0]] != 0 && line.iter().all(|&i| board[i] == board[line[0]]))
        .map(|line| board[line[0]])
}

/// Lines without a mark of the other side, mine minus theirs; a finished
/// game ±9999 for the mover, a full board 0.
fn static_value(board: &Board, mover: u8) -> i32 {
    let other = 3 - mover;
    match winner(board) {
        Some(side) if side == mover => return 9999,
        Some(_) => return -9999,
        None if board.iter().all(|&c| c != 0) => return 0,
        None => {}
    }
    let open =
        |side: u8| LINES.iter().filter(|line| line.iter().all(|&i| board[i] != 3 - side)).count() as i32;
    open(mover) - open(other)
}

/// Plain negamax on the real board, every legal move, `depth` plies.
fn plain(board: &mut Board, mover: u8, depth: u32) -> i32 {
    let over = winner(board).is_some() || board.iter().all(|&c| c != 0);
    if depth == 0 || over {
        return static_value(board, mover);
    }
    let mut best = i32::MIN;
    for i in 0..9 {
        if board[i] == 0 {
            board[i] = mover;
            best = best.max(-plain(board, 3 - mover, depth - 1));
            board[i] = 0;
        }
    }
    best
}

/// Every position reachable in play that is not over.
fn positions() -> Vec<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![[0u8; 9]];
    let mut found = Vec::new();
    while let Some(board) = stack.pop() {
        if !seen.insert(board) || winner(&board).is_some() || board.iter().all(|&c| c != 0) {
            continue;
        }
        found.push(board);
        let mover = if board.iter().filter(|&&c| c != 0).count() % 2 == 0 { 1 } else { 2 };
        for i in 0..9 {
            if board[i] == 0 {
                let mut next = board;
                next[i] = mover;
                stack.push(next);
            }
        }
    }
    found
}

fn to_position(board: &Board, rules: Rules) -> Position {
    let text: Vec<String> =
        board.chunks(3).map(|row| row.iter().map(|&c| ['.', 'x', 'o'][usize::from(c)]).collect()).collect();
    Position::from_one_line(rules, &text.join("/")).unwrap()
}

#[test]
fn agrees_with_a_plain_minimax_on_every_position() {
    let rules = Rules::tic_tac_toe();
    let tree = std::sync::Arc::new(SymmetricTree::build(rules).unwrap());
    let mut search = TreeMinimax::new(tree, OpenLines);
    let boards = positions();
    assert_eq!(boards.len(), 4520);
    let mut slow_wins = 0;
    for board in &boards {
        let pos = to_position(board, rules);
        let mover = if pos.side_to_move() == Side::X { 1 } else { 2 };
        let choice = search.choose(&pos, CLASSIC_TREE_DEPTH).unwrap();
        assert_eq!(choice.moves.len(), pos.legal_move_count(), "{board:?}");
        let mut best = i32::MIN;
        for &(cell, value) in &choice.moves {
            let i = usize::from(cell.y()) * 3 + usize::from(cell.x());
            assert_eq!(board[i], 0, "{board:?}: {cell:?} is taken");
            let mut next = *board;
            next[i] = mover;
            let expected = -plain(&mut next, 3 - mover, CLASSIC_TREE_DEPTH);
            assert_eq!(value, expected, "{board:?}: move {cell:?}");
            best = best.max(expected);
            if expected == 9999 && winner(&next).is_none() {
                slow_wins += 1;
            }
        }
        assert_eq!(choice.value, best, "{board:?}");
        let first_best = choice.moves.iter().find(|&&(_, value)| value == best).unwrap().0;
        assert_eq!(choice.cell, first_best, "{board:?}");
    }
    // Wins a few plies off score the same as wins now: there are such moves.
    assert!(slow_wins > 0);
}

fn choose(one_line: &str) -> TreeChoice {
    let rules = Rules::tic_tac_toe();
    let pos = Position::from_one_line(rules, one_line).unwrap();
    let mut search = TreeMinimax::new(Arc::new(SymmetricTree::build(rules).unwrap()), OpenLines);
    search.choose(&pos, CLASSIC_TREE_DEPTH).unwrap()
}

#[test]
fn the_tree_minimax_takes_the_win_and_blocks() {
    let rules = Rules::tic_tac_toe();
    let win = choose("xx./.o./o..");
    assert_eq!(win.cell.name(&rules).to_string(), "c3");
    assert_eq!(win.value, 9999);
    assert_eq!(choose("x../.x./o..").cell.name(&rules).to_string(), "c1");
}

#[test]
fn to_the_tree_minimax_every_win_is_worth_the_same() {
    // X wins now at a3, or by the fork at c2 two plies later: both are a
    // flat 9999, and c2 comes first in the tree's order.
    let rules = Rules::tic_tac_toe();
    let choice = choose(".../.x./oox");
    let a3 = rules.parse_cell("a3").unwrap();
    assert!(choice.moves.contains(&(a3, 9999)));
    assert_eq!(choice.cell.name(&rules).to_string(), "c2");
    assert_eq!(choice.value, 9999);
}

fn reply(one_line: &str, seed: u64) -> String {
    let rules = Rules::tic_tac_toe();
    let pos = Position::from_one_line(rules, one_line).unwrap();
    let mut agent = MinimaxAgent::new(OpenLines, CLASSIC_DEPTH, seed);
    agent.select_move(&pos, &Limits::none()).unwrap().name(&rules).to_string()
}

#[test]
fn the_classic_minimax_takes_the_win_and_blocks() {
    for seed in 0..5 {
        // X wins at c3 (and O threatens it too).
        assert_eq!(reply("xx./.o./o..", seed), "c3");
        // O must stop a3-b2-c1.
        assert_eq!(reply("x../.x./o..", seed), "c1");
    }
}

#[test]
fn minimax_values_a_win_pushed_out_by_the_plies_left() {
    let rules = Rules::tic_tac_toe();
    let mut pos = Position::from_one_line(rules, "xx./.o./o..").unwrap();
    let mut nodes = 0;
    let value = minimax(&mut pos, 1, &OpenLines, Candidates::All, &mut Vec::new(), &mut nodes);
    // The win scores 9999 pushed out by the 0 plies left after it.
    assert_eq!(value, 9999);
    assert_eq!(nodes, 1 + 5);
}

#[test]
fn the_tree_minimax_chooses_the_first_best_cell_and_maps_it_back() {
    let rules = Rules::tic_tac_toe();
    for one_line in [".../.../...", "x../.../...", ".../.x./...", "x../.o./...", ".x./.../..o"] {
        let pos = Position::from_one_line(rules, one_line).unwrap();
        let choice = choose(one_line);
        let first_best = choice.moves.iter().find(|&&(_, value)| value == choice.value).unwrap().0;
        assert_eq!(choice.cell, first_best, "{one_line}");
        assert!(pos.is_legal(choice.cell), "{one_line}");
    }
}
