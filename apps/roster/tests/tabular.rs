//! The tabular engines in specs: tables from files, and tables trained on
//! first use.

use board::{Limits, Outcome, Overline, Rules, play_game};
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
    let four = Rules::new(4, 4, 3, Overline::Freestyle).unwrap();
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
        wins += u32::from(record.outcome == Outcome::Win(board::Side::X));
    }
    assert!(wins >= 15, "{wins} of 20");
    assert!(spec("matrix:games=0").unwrap_err().contains("from 1 to 100000000"));
    let big = spec("montecarlo").unwrap().check_rules(&Rules::gomoku15()).unwrap_err().to_string();
    assert!(big.contains("at most 40 cells"), "{big}");
}
