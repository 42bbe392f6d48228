//! The learners end to end: the classic figures reproduced, every learner
//! beating random after its default training, tables saved and loaded.

use std::fs;

use board::Rules;
use tabular_rl::{
    KeySpace, MatrixParams, Opponent, ScoreTable, Seat, Table, TdLearner, TdParams, WeightMatrix,
    versus_random,
};

fn space(symmetric: bool) -> KeySpace {
    KeySpace::new(Rules::tic_tac_toe(), symmetric).expect("a small board")
}

/// "Tabular learners" in docs/algorithms.md: 100,000 training games, classic keys, counted while
/// learning: always X — X 89,346, O 5,599, draws 5,055; always O — X
/// 9,102, O 81,182, draws 9,716; side at random — X 50,438, O 40,910,
/// draws 8,652; about 4,520 situations. Ours must land within about a
/// percentage point (1.5 allowed here, over several seeds' spread).
#[test]
fn the_weight_matrix_learner_reproduces_the_classic_figures() {
    let cases = [
        (Seat::X, [89_346, 5_599, 5_055]),
        (Seat::O, [9_102, 81_182, 9_716]),
        (Seat::Random, [50_438, 40_910, 8_652]),
    ];
    for (seat, [x, o, draws]) in cases {
        let mut learner = WeightMatrix::new(space(false), MatrixParams::default());
        let block = learner.train(100_000, seat, 1);
        for (ours, theirs, what) in
            [(block.x_wins, x, "X wins"), (block.o_wins, o, "O wins"), (block.draws, draws, "draws")]
        {
            let gap = (ours as f64 - f64::from(theirs)).abs() / 1000.0;
            assert!(gap <= 1.5, "{seat:?}: {what} {ours} against the classic {theirs}");
        }
        if seat == Seat::Random {
            // Both tables together; the classic "about 4,520".
            assert!((4_000..5_000).contains(&learner.situations()), "{} situations", learner.situations());
        }
    }
}

#[test]
fn every_learner_beats_random_after_default_training() {
    let mut matrix = WeightMatrix::new(space(true), MatrixParams::default());
    matrix.train(100_000, Seat::Random, 1);
    let mut scores = ScoreTable::new(space(true));
    scores.train(100_000, 1);
    let mut td = TdLearner::new(space(true), TdParams::default());
    td.train(100_000, Seat::Random, 1);
    let mut self_play =
        TdLearner::new(space(true), TdParams { opponent: Opponent::SelfPlay, ..TdParams::default() });
    self_play.train(100_000, Seat::Random, 1);
    for (name, policy) in [
        ("matrix", &matrix as &dyn tabular_rl::Policy),
        ("montecarlo", &scores),
        ("td", &td),
        ("td self-play", &self_play),
    ] {
        let results = versus_random(policy, 10_000, 7);
        assert!(results.as_x.percent(results.as_x.wins) >= 85.0, "{name}: {results:?}");
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("mnk-tabular-{}-{name}", std::process::id()))
}

#[test]
fn tables_load_back_identical_and_bad_files_are_clear_errors() {
    let mut matrix =
        WeightMatrix::new(space(true), MatrixParams { precision: 40.0, ..MatrixParams::default() });
    matrix.train(3_000, Seat::Random, 1);
    let mut scores = ScoreTable::new(space(false));
    scores.train(3_000, 1);
    let mut td = TdLearner::new(space(true), TdParams { q_learning: false, ..TdParams::default() });
    td.train(3_000, Seat::O, 1);
    for table in [Table::Matrix(matrix), Table::Scores(scores), Table::Td(td)] {
        let path = temp(table.kind());
        table.save(&path).unwrap();
        let back = Table::load(&path).unwrap();
        assert_eq!(back.kind(), table.kind());
        assert_eq!(back.space().is_symmetric(), table.space().is_symmetric());
        // The same table plays the same games.
        let (ours, theirs) = match (&table, &back) {
            (Table::Matrix(a), Table::Matrix(b)) => (versus_random(a, 300, 3), versus_random(b, 300, 3)),
            (Table::Scores(a), Table::Scores(b)) => (versus_random(a, 300, 3), versus_random(b, 300, 3)),
            (Table::Td(a), Table::Td(b)) => (versus_random(a, 300, 3), versus_random(b, 300, 3)),
            _ => panic!("a {} table came back as {}", table.kind(), back.kind()),
        };
        assert_eq!(ours, theirs);
        // Saving again gives the same bytes: entries are written in key order.
        let again = temp("again");
        back.save(&again).unwrap();
        assert_eq!(fs::read(&path).unwrap(), fs::read(&again).unwrap());

        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let error = Table::load(&path).unwrap_err().to_string();
        assert!(error.contains("damaged"), "{error}");
        // Any one byte changed past the header is caught by the checksum.
        for at in (20..bytes.len()).step_by((bytes.len() / 40).max(1)) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            fs::write(&path, &flipped).unwrap();
            let error = Table::load(&path).unwrap_err().to_string();
            assert!(error.contains("damaged") || error.contains("format version"), "byte {at}: {error}");
        }
        // A file of version 1 (no checksum) still loads.
        let mut old = bytes[..bytes.len() - 8].to_vec();
        old[8] = 1;
        fs::write(&path, &old).unwrap();
        assert_eq!(Table::load(&path).unwrap().kind(), table.kind());
        // …and says it has no checksum; a current file says nothing.
        let (_, note) = Table::load_noting(&path).unwrap();
        assert!(note.is_some_and(|note| note.contains("format 1") && note.contains("no checksum")));
        assert!(Table::load_noting(&again).unwrap().1.is_none());
        // Garbled version-1 files: what can be checked (keys in order, each
        // a position of the board, finite numbers) refuses most of them.
        let (mut loaded, mut tried) = (0, 0);
        for at in (20..old.len()).step_by((old.len() / 150).max(1)) {
            let mut garbled = old.clone();
            garbled[at] ^= 0x5a;
            fs::write(&path, &garbled).unwrap();
            tried += 1;
            loaded += usize::from(Table::load(&path).is_ok());
        }
        // (A weight matrix is mostly floats, whose flipped bits are other
        // floats: only a checksum, which version 2 has, sees those.)
        if table.kind() == "montecarlo" {
            assert!(loaded * 2 < tried, "{loaded} of {tried} garbled score tables loaded");
        }
        let _ = (fs::remove_file(&path), fs::remove_file(&again));
    }
    let foreign = temp("foreign.json");
    fs::write(&foreign, "[1, 2, 3]").unwrap();
    let error = Table::load(&foreign).unwrap_err().to_string();
    assert!(error.contains("is not a table file") && error.contains("mnk-tabl"), "{error}");
    let error = Table::load(&temp("missing")).unwrap_err().to_string();
    assert!(error.contains("missing"), "{error}");
    let _ = fs::remove_file(foreign);
}
