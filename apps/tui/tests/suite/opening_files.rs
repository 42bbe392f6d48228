//! A game saved while its swap or RIF opening is under way: the file
//! keeps the steps and the stones a person had given toward the next, and
//! the loaded game goes on from there; a file whose opening does not hold
//! together is refused, saying why.

use std::path::{Path, PathBuf};
use std::time::Duration;

use board::Rules;
use play::OpeningRule;
use ratatui::crossterm::event::KeyCode;
use tui::App;
use tui::record::{GameFile, UnderWay};

use crate::common::{press, setup, type_text};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tui-opening-{}-{name}", std::process::id()))
}

fn game(rules: Rules, rule: OpeningRule) -> App {
    App::new(tui::Setup { opening: rule, ..setup(rules, "human", "human") })
}

/// Saves the game with `S` and loads the file into a new game.
fn saved_and_loaded(app: &mut App, path: &Path) -> App {
    app.set_file(path.to_path_buf());
    press(app, KeyCode::Char('S'));
    if app.message().contains("press S again") {
        press(app, KeyCode::Char('S'));
    }
    assert!(app.message().starts_with("saved"), "{}", app.message());
    let loaded = tui::record::load(path, 1, Duration::from_millis(50)).expect("the saved game loads");
    let mut again = App::loaded(loaded);
    again.loaded_from(path.to_path_buf());
    assert_eq!(again.pos().moves(), app.pos().moves());
    assert_eq!(again.swap_phase(), app.swap_phase(), "{}", again.message());
    assert_eq!(again.opening_ask(), app.opening_ask());
    assert_eq!(again.offered(), app.offered());
    again
}

/// One input of a person: a stone or number typed, or a key.
fn give(app: &mut App, input: &str) {
    match input {
        "X" | "K" | "F" => press(app, KeyCode::Char(input.chars().next().unwrap())),
        _ => type_text(app, input),
    }
}

#[test]
fn a_soosorv_opening_saved_after_any_input_goes_on_where_it_stood() {
    let path = temp("soosorv.json");
    // Every kind of step, and stones given toward a step at each: the
    // standard opening's, the fourth before its count, an offer, a pick.
    let inputs = ["h8", "i9", "j10", "X", "g6", "2", "K", "k12", "c3", "c3", "g9"];
    let mut app = game(Rules::renju(), OpeningRule::Soosorv8);
    for input in inputs {
        give(&mut app, input);
        app = saved_and_loaded(&mut app, &path);
    }
    assert!(app.swap_phase().is_none(), "{}", app.message());
    let record = app.settled_opening().expect("the opening settled");
    assert_eq!(
        play::opening_rules::rif::first_player_colour(&Rules::renju(), record, None),
        Ok(record.opener)
    );
    assert_eq!(app.pos().ply(), 6);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_taraguchi_opening_and_a_swap2_one_go_on_after_a_save() {
    let path = temp("taraguchi.json");
    let mut app = game(Rules::renju(), OpeningRule::Taraguchi10);
    for input in ["h8", "K", "h9", "X", "j10", "K", "i10", "F", "a1", "b1"] {
        give(&mut app, input);
        app = saved_and_loaded(&mut app, &path);
    }
    assert!(matches!(app.opening_ask(), Some(play::opening_rules::rif::OpeningAsk::Offer { count: 10 })));
    assert_eq!(app.offered().len(), 2, "{}", app.message());
    // Swap2 with two more stones chosen: the choice is kept.
    let mut app = game(Rules::gomoku15(), OpeningRule::Swap2);
    for input in ["h8", "h9", "j10", "F", "a1"] {
        give(&mut app, input);
        app = saved_and_loaded(&mut app, &path);
    }
    assert!(app.swap_phase().is_some_and(|phase| phase.putting_two), "{}", app.message());
    give(&mut app, "o15");
    assert_eq!(app.pos().ply(), 5);
    std::fs::remove_file(&path).unwrap();
}

fn file(rules: &str, opening: &str, moves: &[&str], under_way: Option<UnderWay>) -> GameFile {
    GameFile {
        rules: rules.to_owned(),
        x: "human".to_owned(),
        o: "human".to_owned(),
        clock: None,
        result: None,
        level: None,
        opening: Some(opening.to_owned()),
        moves: moves.iter().map(|&name| name.to_owned()).collect(),
        swap: None,
        under_way,
    }
}

fn refusal(file: &GameFile) -> String {
    format!("{:#}", file.setup(Duration::from_millis(50)).expect_err("refused"))
}

#[test]
fn an_opening_that_does_not_hold_together_is_refused() {
    let cell = |name: &str| Rules::renju().parse_cell(name).unwrap();
    let steps = vec![play::SwapStep::Put(vec![cell("h8"), cell("i9"), cell("j10")])];
    let offer = |pending: &[&str]| UnderWay {
        steps: [
            steps.clone(),
            vec![play::SwapStep::Swap(false)],
            vec![play::SwapStep::Declared { stone: cell("g6"), fifths: 3 }],
            vec![play::SwapStep::Swap(false)],
        ]
        .concat(),
        pending: pending.iter().map(|&name| cell(name)).collect(),
        putting_two: false,
    };
    let opening = ["h8", "i9", "j10", "g6"];
    for (file, why) in [
        // Stones with no steps: the opening cannot go on.
        (file("renju", "soosorv8", &["a1", "b2", "c3"], None), "no steps"),
        // Steps whose stones are not the moves.
        (
            file(
                "renju",
                "soosorv8",
                &["h8", "i9", "j11"],
                Some(UnderWay { steps: steps.clone(), ..UnderWay::default() }),
            ),
            "not the stones of its soosorv8 steps",
        ),
        // Stones given toward a step that takes none.
        (
            file(
                "renju",
                "soosorv8",
                &["h8", "i9", "j10", "a1"],
                Some(UnderWay { steps: steps.clone(), pending: vec![cell("a1")], putting_two: false }),
            ),
            "at most 0",
        ),
        // A standard opening's second stone outside the 3x3.
        (
            file(
                "renju",
                "soosorv8",
                &["h8", "l12"],
                Some(UnderWay { pending: vec![cell("h8"), cell("l12")], ..UnderWay::default() }),
            ),
            "within the central 3x3",
        ),
        // An offered fifth stone on a stone, or twice, or a twin.
        (file("renju", "soosorv8", &opening, Some(offer(&["h8"]))), "cannot put a stone on h8"),
        (file("renju", "soosorv8", &opening, Some(offer(&["a1", "a1"]))), "by a symmetry"),
        // Three offered of three: the step would have been answered.
        (file("renju", "soosorv8", &opening, Some(offer(&["a1", "b1", "c1"]))), "at most 2"),
        // A count of fifth stones the rule does not allow.
        (
            file(
                "renju",
                "soosorv8",
                &["h8", "i9", "j10"],
                Some(UnderWay {
                    steps: [
                        steps.clone(),
                        vec![play::SwapStep::Swap(false)],
                        vec![play::SwapStep::Declared { stone: cell("a1"), fifths: 9 }],
                    ]
                    .concat(),
                    ..UnderWay::default()
                }),
            ),
            "1 to 8",
        ),
        // Swap2: two more stones chosen with five on the board.
        (
            file(
                "15,15,5",
                "swap2",
                &["h8", "h9", "j10", "a1", "o15"],
                Some(UnderWay { putting_two: true, ..UnderWay::default() }),
            ),
            "does not fit its 5 stones",
        ),
        (
            file("15,15,5", "swap1", &["h8", "h9", "j10", "a1"], Some(UnderWay::default())),
            "does not fit its 4 stones",
        ),
        // Under way and settled at once.
        (
            GameFile {
                swap: Some(play::SwapRecord {
                    rule: OpeningRule::Swap1,
                    opener: board::Side::X,
                    steps: Vec::new(),
                }),
                ..file("15,15,5", "swap1", &[], Some(UnderWay::default()))
            },
            "both settled and under way",
        ),
    ] {
        let said = refusal(&file);
        assert!(said.contains(why), "{why:?} not in {said:?} ({file:?})");
    }
}

#[test]
fn an_opening_under_way_is_not_saved_as_sgf() {
    let path = temp("under-way.sgf");
    let mut app = game(Rules::renju(), OpeningRule::Soosorv8);
    give(&mut app, "h8");
    app.set_file(path.clone());
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().contains("an SGF file cannot hold its steps"), "{}", app.message());
    assert!(!path.exists());
}
