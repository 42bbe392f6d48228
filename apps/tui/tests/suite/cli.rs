//! The binary's errors before the screen opens: bad flags, and no terminal.

use std::process::{Command, Stdio};

/// Runs mnk-tui with `args` and no terminal: its exit success and stderr.
fn run(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_mnk-tui"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn without_a_terminal_it_says_so_and_does_not_panic() {
    let (success, stderr) = run(&[]);
    assert!(!success);
    assert!(stderr.contains("is played in a terminal"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// 16 games saved by the c-gomoku-cli manager.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates/play/tests/data/c-gomoku-cli.sgf");

#[test]
fn bad_flags_are_clear_errors_before_the_screen_opens() {
    for (args, expected) in [
        (&["--rules", "15,15"][..], "15,15"),
        (&["--o", "no-such-engine"][..], "no-such-engine"),
        (&["--time-ms", "0"][..], "--time-ms must be from 10 to 600000"),
        (&["--load", "/no/such/game.json"][..], "/no/such/game.json"),
        (&["--clock", "5 minutes"][..], "MATCH[+INCREMENT][/TURN]"),
        (&["--clock", "300+x"][..], "the increment is not a number"),
        (&["--load", FIXTURE, "--game", "17"][..], "holds 16 game(s), not game 17"),
        (&["--game", "2"][..], "--load"),
        (&["--rules", "2,2,2", "--opening", "swap2"][..], "too small for a swap2 opening"),
        (&["--rules", "1,5,5,renju", "--opening", "swap1"][..], "too small for a swap1 opening"),
        (&["--rules", "renju", "--from", "14D"][..], "--from takes a standard renju opening"),
        (&["--rules", "renju", "--from", "h8 h8"][..], "--from"),
        (&["--rules", "renju", "--from", "4D", "--opening", "swap2"][..], "puts them by its own steps"),
        (&["--rules", "renju", "--from", "4D", "--opening", "soosorv8"][..], "puts them by its own steps"),
        (&["--rules", "7,7,5", "--opening", "soosorv8"][..], "needs a central 9x9"),
        (&["--opening", "soosorv8"][..], "an opening rule of renju"),
        (&["--rules", "caro", "--opening", "taraguchi10"][..], "an opening rule of renju"),
        (
            &["--database", "Cargo.toml"][..],
            "--database Cargo.toml: Cargo.toml is not an mnk analysis database",
        ),
    ] {
        let (success, stderr) = run(args);
        assert!(!success, "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn renju_starts_against_an_engine_that_plays_it() {
    // Without --o, O is the first engine that plays the rules: the game
    // gets as far as the missing terminal.
    let (_, stderr) = run(&["--rules", "renju"]);
    assert!(stderr.contains("is played in a terminal"), "{stderr}");
    // So do the RIF's opening rules, a person playing their steps.
    for rule in ["soosorv8", "taraguchi-10"] {
        let (_, stderr) = run(&["--rules", "renju", "--opening", rule]);
        assert!(stderr.contains("is played in a terminal"), "{rule}: {stderr}");
    }
    // From a standard opening, by its code or its name.
    for from in ["4D", "kagetsu", "h8 i9 f6"] {
        let (_, stderr) = run(&["--rules", "renju", "--from", from]);
        assert!(stderr.contains("is played in a terminal"), "{from}: {stderr}");
    }
    // Named, an engine that cannot is a clear error.
    let (success, stderr) = run(&["--rules", "renju", "--o", "perfect"]);
    assert!(!success && stderr.contains("perfect cannot play 15,15,5,renju"), "{stderr}");
}
