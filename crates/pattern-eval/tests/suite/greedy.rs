//! The greedy pattern player: wins in one, blocks, beats `random`, and
//! reports its scores.

use board::{Outcome, Position, Rules, Side};
use pattern_eval::{Family, GreedyAgent, Weights};
use play::{Agent, Limits, RandomAgent, ScoreKind, play_game};

fn reply(family: Family, pos: &Position, seed: u64) -> String {
    let mut greedy = GreedyAgent::new(family, seed);
    greedy.new_game(pos.rules());
    greedy.select_move(pos, &Limits::none()).unwrap().name(pos.rules()).to_string()
}

#[test]
fn takes_a_win_in_one() {
    let rules = Rules::five_8x8();
    // X: c3 d3 e3 f3 with both ends open; O to move cannot stop both, but
    // here it is X to move with O having blocked nothing.
    let pos = Position::from_moves(rules, "c3 a8 d3 b8 e3 h8 f3 h7").unwrap();
    for family in Family::ALL {
        for seed in 0..20 {
            assert!(["b3", "g3"].contains(&reply(family, &pos, seed).as_str()), "{family}");
        }
    }
    // A win in one beats blocking the opponent's four.
    let pos = Position::from_moves(rules, "a1 h1 a2 h2 a3 h3 a4 h4 c6").unwrap();
    for family in Family::ALL {
        assert_eq!(reply(family, &pos, 1), "h5", "{family}");
    }
}

#[test]
fn blocks_the_completion_of_a_four() {
    let rules = Rules::gomoku15();
    // X has h8 h9 h10 h11 with h7 taken by O: O must take h12.
    let pos = Position::from_moves(rules, "h8 h7 h9 a1 h10 a15 h11").unwrap();
    for family in Family::ALL {
        for seed in 0..10 {
            assert_eq!(reply(family, &pos, seed), "h12", "{family}");
        }
    }
    // A split four: e5 f5 _ h5 i5 — the gap is the only block.
    let pos = Position::from_moves(rules, "e5 a1 f5 a15 h5 o1 i5").unwrap();
    for family in Family::ALL {
        assert_eq!(reply(family, &pos, 3), "g5", "{family}");
    }
}

#[test]
fn the_ternary_family_blocks_an_open_three() {
    let rules = Rules::gomoku15();
    // X: g8 h8 i8, open at both ends; O must stop the open four at f8 or j8.
    let pos = Position::from_moves(rules, "g8 a1 h8 a15 i8").unwrap();
    for seed in 0..10 {
        assert!(["f8", "j8"].contains(&reply(Family::Ternary, &pos, seed).as_str()));
    }
}

#[test]
fn analysis_scores_every_empty_cell() {
    let rules = Rules::five_8x8();
    let pos = Position::from_moves(rules, "d4 e5 d5").unwrap();
    let mut greedy = GreedyAgent::new(Family::Classic, 0);
    greedy.new_game(&rules);
    let cell = greedy.select_move(&pos, &Limits::none()).unwrap();
    let analysis = greedy.analysis().unwrap();
    assert_eq!(analysis.best_move, Some(cell));
    assert_eq!(analysis.score_kind, ScoreKind::Evaluation);
    assert_eq!(analysis.scores.len(), pos.legal_move_count());
    let chosen = analysis.scores.iter().find(|score| score.cell == cell).unwrap().score;
    assert!(analysis.scores.iter().all(|score| score.score <= chosen));
}

#[test]
fn weights_for_another_k_are_an_error_not_a_panic() {
    let weights = Weights::default_for(Family::Classic, 5).unwrap();
    let mut greedy = GreedyAgent::with_weights(weights, 0);
    let rules = Rules::tic_tac_toe();
    greedy.new_game(&rules);
    let error = greedy.select_move(&Position::new(rules), &Limits::none()).unwrap_err();
    assert_eq!(error.to_string(), "these classic weights are for k = 5, but the game has k = 3");
    let big_k = Rules::new(12, 12, 10, board::RuleSet::Freestyle).unwrap();
    let error = GreedyAgent::new(Family::Ternary, 0).select_move(&Position::new(big_k), &Limits::none());
    assert!(error.unwrap_err().to_string().contains("k from 2 to 8"));
}

#[test]
fn seeds_vary_the_games() {
    let rules = Rules::five_8x8();
    let games: Vec<Vec<_>> = (0..4)
        .map(|seed| {
            let (mut x, mut o) =
                (GreedyAgent::new(Family::Classic, seed), GreedyAgent::new(Family::Classic, seed + 100));
            play_game(rules, [&mut x, &mut o], &[], &Limits::none()).unwrap().cells().collect()
        })
        .collect();
    assert!(games.windows(2).any(|pair| pair[0] != pair[1]));
}

/// Wins of the greedy player against `random` in `games` games, as `side`.
fn wins_against_random(family: Family, side: Side, games: u64) -> u64 {
    let rules = Rules::five_8x8();
    let mut wins = 0;
    for seed in 0..games {
        let mut greedy = GreedyAgent::new(family, seed);
        let mut random = RandomAgent::new(seed + 1_000_000);
        let agents: [&mut dyn Agent; 2] = match side {
            Side::X => [&mut greedy, &mut random],
            Side::O => [&mut random, &mut greedy],
        };
        let record = play_game(rules, agents, &[], &Limits::none()).unwrap();
        assert!(record.forfeit.is_none());
        wins += u64::from(record.outcome == Outcome::Win(side));
    }
    wins
}

#[test]
fn beats_random_on_8x8_five_in_a_row() {
    for family in Family::ALL {
        for side in Side::ALL {
            let wins = wins_against_random(family, side, 500);
            assert!(wins >= 495, "{family} as {side:?} won only {wins} of 500");
        }
    }
}

#[test]
fn under_renju_black_never_plays_a_forbidden_point() {
    use board::{Cell, Outcome, Position};
    use play::{RandomAgent, play_game};
    // Black's double three at 7,7 is the point its patterns like best.
    let rules = Rules::renju();
    let pos = Position::from_moves(rules, "f8 a1 g8 o1 h6 a15 h7 o15").unwrap();
    let mut free = Position::new(Rules::gomoku15());
    for &cell in pos.moves() {
        free.play(cell).unwrap();
    }
    let mut greedy = GreedyAgent::new(GreedyAgent::DEFAULT_FAMILY, 1);
    assert_eq!(greedy.select_move(&free, &Limits::none()).unwrap(), Cell::new(7, 7), "freestyle takes it");
    let chosen = greedy.select_move(&pos, &Limits::none()).unwrap();
    assert_ne!(chosen, Cell::new(7, 7));
    assert!(pos.is_legal(chosen));
    // Whole games against a random player: never a forfeit, and won.
    for seed in 0..8 {
        let (mut x, mut o) = (GreedyAgent::new(GreedyAgent::DEFAULT_FAMILY, seed), RandomAgent::new(seed));
        let record = play_game(rules, [&mut x, &mut o], &[], &Limits::none()).unwrap();
        assert_eq!((record.forfeit, record.outcome), (None, Outcome::Win(board::Side::X)), "seed {seed}");
    }
}
