//! SGF in the bench: `bench analyze --sgf` reads a game's position, and
//! `bench match --sgf` writes every game of a run as one collection.

use std::path::PathBuf;
use std::process::{Command, Output};

use board::{Outcome, Side};
use serde_json::Value;

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bench")).args(args).output().expect("the bench binary runs")
}

fn fixture() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/play/tests/data/c-gomoku-cli.sgf");
    path.display().to_string()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bench-sgf-{}-{name}", std::process::id()))
}

#[test]
fn analyze_reads_the_position_of_an_sgf_game_at_a_move() {
    let fixture = fixture();
    let analyze = |extra: &[&str]| {
        let mut args =
            vec!["analyze", "--sgf", &fixture, "--engine", "alphabeta", "--nodes", "3000", "--json"];
        args.extend_from_slice(extra);
        bench(&args)
    };
    // Game 1 after 12 moves: X (black) has dd, ff, gg and hh on a diagonal,
    // and ee, its 13th move, makes five: a proven win.
    let output = analyze(&["--move", "12"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["rules"], "15,15,5");
    assert!(value["win_in"].as_i64().is_some_and(|plies| plies > 0), "{value}");
    // Errors say what was wrong.
    for (extra, expected) in [
        (&["--move", "99"][..], "has 13 moves, not 99"),
        (&["--game", "17"][..], "holds 16 game(s), not game 17"),
        (&[][..], "already over"),
        (&["--rules", "19,19,5"][..], "differ from the game's rules"),
        (&["--position", "..."][..], "cannot be used with"),
    ] {
        let output = analyze(extra);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains(expected), "{extra:?}: {stderr}");
    }
    let output = bench(&["analyze", "--sgf", "/no/such.sgf", "--engine", "alphabeta"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such.sgf"));
}

#[test]
fn match_writes_every_game_to_one_collection() {
    let (sgf, records) = (temp("match.sgf"), temp("match.jsonl"));
    let common = ["match", "--rules", "9,9,5", "--a", "pattern", "--b", "random", "--games", "6", "--json"];
    let mut args: Vec<&str> = common.to_vec();
    let sgf_text = sgf.display().to_string();
    args.extend(["--sgf", &sgf_text]);
    let output = bench(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let games = play::sgf::parse(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
    assert_eq!(games.len(), 6);
    for (i, game) in games.iter().enumerate() {
        // A plays X in even games.
        let x = if i % 2 == 0 { "pattern" } else { "random" };
        assert_eq!(game.players[0].as_deref(), Some(x));
        let outcome = game.position(None).unwrap().outcome();
        let expected = match game.result.as_deref() {
            Some("B+") => Some(Outcome::Win(Side::X)),
            Some("W+") => Some(Outcome::Win(Side::O)),
            Some("0") => Some(Outcome::Draw),
            other => panic!("result {other:?}"),
        };
        assert_eq!(outcome, expected, "game {i}");
    }
    // With records, a resumed run writes all its games, not only those it
    // plays (here none: the first run played them all).
    let records_text = records.display().to_string();
    let mut first: Vec<&str> = common.to_vec();
    first.extend(["--records", &records_text]);
    assert!(bench(&first).status.success());
    let mut resumed: Vec<&str> = common.to_vec();
    resumed.extend(["--records", &records_text, "--resume", "--sgf", &sgf_text]);
    let output = bench(&resumed);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let again = play::sgf::parse(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
    assert_eq!(again.len(), 6);
    // The same file twice is refused before any game.
    let mut clash: Vec<&str> = common.to_vec();
    clash.extend(["--records", &sgf_text, "--sgf", &sgf_text]);
    let stderr = String::from_utf8_lossy(&bench(&clash).stderr).into_owned();
    assert!(stderr.contains("--sgf and --records both name"), "{stderr}");
    std::fs::remove_file(&sgf).unwrap();
    std::fs::remove_file(&records).unwrap();
}

#[test]
fn opening_comments_name_the_entrants_as_the_header_does() {
    // `mcts` calls itself `uct`; the SGF names it by its spec everywhere.
    let sgf = temp("rif.sgf");
    let sgf_text = sgf.display().to_string();
    let args = [
        "match",
        "--rules",
        "renju",
        "--opening",
        "soosorv8",
        "--a",
        "random",
        "--b",
        "mcts",
        "--nodes",
        "50",
        "--games",
        "2",
        "--sgf",
        &sgf_text,
    ];
    let output = bench(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert!(text.contains("by mcts") && !text.contains("uct"), "{text}");
    assert!(!text.contains("1 fifth stones"), "{text}");
}
