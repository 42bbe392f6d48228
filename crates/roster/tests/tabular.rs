//! The tabular engines in specs: tables from files, and tables trained on
//! first use.

use board::{Outcome, RuleSet, Rules, Side};
use play::{Limits, play_game};
use roster::AgentSpec;
use tabular_rl::{KeySpace, MatrixParams, Seat, Table, WeightMatrix};

fn spec(text: &str) -> Result<AgentSpec, String> {
    text.parse::<AgentSpec>().map_err(|error| error.to_string())
}

#[test]
fn a_saved_table_plays_its_board_only() {
    let path = std::env::temp_dir().join(format!("mnk-roster-{}.table", std::process::id()));
    let mut learner =
        WeightMatrix::new(KeySpace::new(Rules::tic_tac_toe(), true).unwrap(), MatrixParams::default());
    learner.train(20_000, Seat::Random, 1);
    Table::Matrix(learner).save(&path).unwrap();
    let text = format!("matrix:table={}", path.display());
    let matrix = spec(&text).unwrap();
    let random = spec("random").unwrap();
    let record =
        play_game(Rules::tic_tac_toe(), [&mut *matrix.build(1), &mut *random.build(2)], &[], &Limits::none())
            .unwrap();
    assert!(record.forfeit.is_none());
    let four = Rules::new(4, 4, 3, RuleSet::Freestyle).unwrap();
    let refusal = matrix.check_rules(&four).unwrap_err().to_string();
    assert!(refusal.contains("trained on 3,3,3"), "{refusal}");

    let wrong = spec(&format!("montecarlo:table={}", path.display())).unwrap_err();
    assert!(wrong.contains("holds a matrix table, not a montecarlo one"), "{wrong}");
    let missing = spec("td:table=/no/such/table").unwrap_err();
    assert!(missing.contains("/no/such/table"), "{missing}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn without_a_table_one_is_trained_and_the_name_says_so() {
    let td = spec("td:games=20000").unwrap();
    let random = spec("random").unwrap();
    let mut wins = 0;
    for seed in 0..20 {
        let (mut a, mut b) = (td.build(seed), random.build(seed));
        let record = play_game(Rules::tic_tac_toe(), [&mut *a, &mut *b], &[], &Limits::none()).unwrap();
        assert!(record.players[0].contains("trained here: 20000 games"), "{:?}", record.players);
        assert!(a.analysis().is_some_and(|analysis| !analysis.scores.is_empty()), "it tells its scores");
        wins += u32::from(record.outcome == Outcome::Win(board::Side::X));
    }
    assert!(wins >= 15, "{wins} of 20");
    assert!(spec("matrix:games=0").unwrap_err().contains("from 1 to 100000000"));
    let big = spec("montecarlo").unwrap().check_rules(&Rules::gomoku15()).unwrap_err().to_string();
    assert!(big.contains("at most 40 cells"), "{big}");
}

/// A table file in the temporary folder, removed when dropped.
struct TempTable(std::path::PathBuf);

impl TempTable {
    fn new(name: &str) -> TempTable {
        let path = std::env::temp_dir().join(format!("mnk-roster-{name}-{}.table", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempTable(path)
    }
}

impl Drop for TempTable {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_learning_matrix_punishes_its_moves_of_a_lost_game_exactly_and_saves_them() {
    let rules = Rules::tic_tac_toe();
    let file = TempTable::new("lost");
    let learner =
        spec(&format!("matrix:learn=true,games=0,symmetric=false,table={}", file.0.display())).unwrap();
    assert!(learner.learns());
    assert!(!spec("matrix").unwrap().learns());
    let perfect = spec("perfect").unwrap();
    // The perfect player as X beats the empty table sooner or later; the
    // first game it wins, every situation of the learner is new.
    let record = (0..50)
        .find_map(|seed| {
            let (mut x, mut o) = (perfect.build(seed), learner.build(seed));
            let record = play_game(rules, [&mut *x, &mut *o], &[], &Limits::none()).unwrap();
            assert!(record.learning_errors.is_empty(), "{:?}", record.learning_errors);
            (record.outcome == Outcome::Win(Side::X)).then_some((record, o.games_learned()))
        })
        .expect("a lost game");
    let (record, games_learned) = record;
    let Table::Matrix(matrix) = Table::load(&file.0).unwrap() else { panic!("a matrix table") };
    // The learner's moves, last first: 100 − 20 · 0.65^j (an earlier game,
    // a draw, may have met a situation, but left it at 100).
    let mut pos = board::Position::new(rules);
    let mut learner_moves = Vec::new();
    for cell in record.cells() {
        if pos.side_to_move() == Side::O {
            learner_moves.push((pos.clone(), cell));
        }
        pos.play(cell).unwrap();
    }
    for (j, (before, cell)) in learner_moves.iter().rev().enumerate() {
        let weights = matrix.weights(before).expect("a situation the learner met");
        let index = usize::from(cell.y()) * 3 + usize::from(cell.x());
        let expected = 100.0 - 20.0 * 0.65f64.powi(j as i32);
        assert!((weights[index] - expected).abs() < 1e-9, "move {j} from the end: {}", weights[index]);
        for other in before.empty_cells().iter().filter(|other| other != cell) {
            let other = weights[usize::from(other.y()) * 3 + usize::from(other.x())];
            assert!((other - 100.0).abs() < 1e-9, "only the move made changes");
        }
    }
    assert!(games_learned.is_some_and(|games| games >= 1));
}

#[test]
fn a_learning_table_is_saved_after_every_game_and_the_next_run_goes_on_from_it() {
    let rules = Rules::tic_tac_toe();
    let file = TempTable::new("sessions");
    let text = format!("montecarlo:learn=true,games=0,table={}", file.0.display());
    let play = |learner: &AgentSpec, games: u64, first_seed: u64| {
        let random = spec("random").unwrap();
        for seed in first_seed..first_seed + games {
            let (mut a, mut b) = (learner.build(seed), random.build(seed));
            let record = play_game(rules, [&mut *a, &mut *b], &[], &Limits::none()).unwrap();
            assert!(record.learning_errors.is_empty(), "{:?}", record.learning_errors);
            assert!(file.0.exists(), "saved after the first game");
        }
    };
    let first = spec(&text).unwrap();
    play(&first, 30, 0);
    let Table::Scores(after_first) = Table::load(&file.0).unwrap() else { panic!("a score table") };
    assert!(after_first.positions() > 0);
    // A second run reads the file and goes on: what the first learned is kept.
    let second = spec(&text).unwrap();
    play(&second, 30, 100);
    let Table::Scores(after_second) = Table::load(&file.0).unwrap() else { panic!("a score table") };
    assert!(after_second.positions() > after_first.positions());
    // Playing from the file without learning leaves it as it is.
    let reader = spec(&format!("montecarlo:table={}", file.0.display())).unwrap();
    let bytes = std::fs::read(&file.0).unwrap();
    play(&reader, 5, 200);
    assert_eq!(std::fs::read(&file.0).unwrap(), bytes);
}

#[test]
fn a_corrupt_learning_table_is_a_clear_error_and_is_never_overwritten() {
    let file = TempTable::new("corrupt");
    let learner = spec(&format!("td:learn=true,games=0,table={}", file.0.display())).unwrap();
    let (mut a, mut b) = (learner.build(1), spec("random").unwrap().build(1));
    play_game(Rules::tic_tac_toe(), [&mut *a, &mut *b], &[], &Limits::none()).unwrap();
    let mut bytes = std::fs::read(&file.0).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&file.0, &bytes).unwrap();
    let error = spec(&format!("td:learn=true,table={}", file.0.display())).unwrap_err();
    assert!(error.contains("option table of td") && error.contains("damaged"), "{error}");
    assert_eq!(std::fs::read(&file.0).unwrap(), bytes, "the damaged file is left as it was");
    let nowhere = spec("matrix:learn=true,table=/no/such/folder/t.table").unwrap_err();
    assert!(nowhere.contains("its folder does not exist"), "{nowhere}");
    assert!(spec("matrix:games=0").unwrap_err().contains("from 1 to 100000000"));
    assert!(spec("matrix:learn=maybe").unwrap_err().contains("true or false"));
}

#[test]
fn a_learning_table_refuses_the_rules_it_was_not_made_for() {
    let learner = spec("matrix:learn=true,games=0").unwrap();
    let random = spec("random").unwrap();
    let (mut a, mut b) = (learner.build(1), random.build(1));
    let record = play_game(Rules::tic_tac_toe(), [&mut *a, &mut *b], &[], &Limits::none()).unwrap();
    assert!(record.forfeit.is_none());
    let analysis = a.analysis().expect("the learner tells its chances");
    assert_eq!(analysis.score_kind, play::ScoreKind::Probability);
    let four = Rules::new(4, 4, 3, RuleSet::Freestyle).unwrap();
    let (mut a, mut b) = (learner.build(2), random.build(2));
    let record = play_game(four, [&mut *a, &mut *b], &[], &Limits::none()).unwrap();
    let forfeit = record.forfeit.expect("a forfeit");
    assert!(forfeit.reason.contains("learns 3,3,3, not 4,4,3"), "{}", forfeit.reason);
}

#[test]
fn the_learners_play_renju_and_caro_on_their_boards() {
    let renju = Rules::new(8, 5, 5, RuleSet::Renju).unwrap();
    let caro = Rules::new(8, 5, 5, RuleSet::Caro).unwrap();
    let mut forbidden_met = 0;
    for rules in [renju, caro] {
        for name in ["matrix", "montecarlo", "td"] {
            let learner = spec(&format!("{name}:games=3000")).unwrap();
            learner.check_rules(&rules).unwrap();
            let random = spec("random").unwrap();
            for seed in 0..12 {
                let mut agents = [learner.build(seed), random.build(seed + 100)];
                if seed % 2 == 1 {
                    agents.swap(0, 1);
                }
                let [x, o] = &mut agents;
                let record = play_game(rules, [&mut **x, &mut **o], &[], &Limits::none()).unwrap();
                assert!(record.forfeit.is_none(), "{name} on {rules}: {:?}", record.forfeit);
                // Count the positions where black had a point it may not play.
                let mut pos = board::Position::new(rules);
                for cell in record.cells() {
                    forbidden_met += usize::from(pos.legal_cells() != pos.empty_cells());
                    pos.play(cell).unwrap();
                }
            }
        }
    }
    assert!(forbidden_met > 0, "the renju games met black's forbidden points");
}

#[test]
fn a_second_program_learning_into_the_same_table_is_refused_before_it_plays() {
    let file = TempTable::new("held");
    // Another program's hold on the file, as a second `bench match` or game would take it.
    let other = play::files::lock_output(&file.0).unwrap();
    let error = spec(&format!("matrix:learn=true,games=0,table={}", file.0.display())).unwrap_err();
    assert!(error.contains("another program is writing"), "{error}");
    drop(other);
    assert!(spec(&format!("matrix:learn=true,games=0,table={}", file.0.display())).is_ok());
}
