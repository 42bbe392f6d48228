//! Files of earlier builds still load: written before the rule set was
//! renamed (`overline` in JSON), a records file, a learning table and a
//! saved game, each under renju (what is written now names the rule set
//! `rule_set`); written before play left board, records with the RIF
//! opening rules' steps.

use std::path::{Path, PathBuf};
use std::time::Duration;

use board::Rules;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

#[test]
fn a_records_file_with_the_overline_key_reads() {
    let (header, games) =
        arena::read_run(&fixture("records-renju-overline.jsonl")).expect("the records read");
    let renju = Rules::new(9, 9, 5, board::RuleSet::Renju).unwrap();
    assert_eq!(header.expect("a header").rules, renju);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|game| game.record.rules == renju));
    // Written now: the new key.
    let json = serde_json::to_string(&renju).unwrap();
    assert!(json.contains(r#""rule_set":"renju""#) && !json.contains("overline"), "{json}");
}

#[test]
fn a_learning_table_of_format_2_loads() {
    let table = tabular_rl::Table::load(&fixture("td-renju-format2.table")).expect("the table loads");
    assert_eq!(table.space().rules(), Rules::new(8, 5, 5, board::RuleSet::Renju).unwrap());
}

#[test]
fn a_saved_game_loads() {
    let file = tui::record::GameFile::load(&fixture("saved-game-renju.json")).expect("the game reads");
    let loaded = file.setup(Duration::from_millis(200)).expect("the game sets up");
    assert_eq!(loaded.setup.rules, Rules::renju());
    assert_eq!(loaded.moves.len(), 4);
}

#[test]
fn records_with_rif_opening_steps_of_the_build_before_play_read() {
    for (name, rule) in [
        ("records-soosorv8.jsonl", play::OpeningRule::Soosorv8),
        ("records-taraguchi10.jsonl", play::OpeningRule::Taraguchi10),
    ] {
        let (header, games) = arena::read_run(&fixture(name)).expect("the records read");
        assert_eq!(header.expect("a header").rules, Rules::renju());
        assert_eq!(games.len(), 2, "{name}");
        for game in &games {
            let swap = game.record.swap.as_ref().expect("the opening's steps");
            assert_eq!(swap.rule, rule);
            // The steps replay by the rule and put the record's first stones.
            assert_eq!(game.record.check(), Ok(()), "{name}");
            assert!(game.record.opening.starts_with(&play::opening_rules::rif::stones(&swap.steps)));
        }
    }
}
