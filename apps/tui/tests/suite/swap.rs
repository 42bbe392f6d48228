//! Swap openings in the terminal game: a person puts the stones or
//! chooses, an engine does its part, and the colours settle.

use std::time::{Duration, Instant};

use board::{Rules, Side};
use play::{OpeningRule, SwapStep};
use ratatui::crossterm::event::KeyCode;
use tui::{App, Player};

use crate::common::{press, screen, setup, tick_until, type_text};

fn swap_game(x: &str, o: &str, rule: OpeningRule) -> App {
    App::new(tui::Setup { opening: rule, ..setup(Rules::gomoku15(), x, o) })
}

fn is_human(app: &App, side: Side) -> bool {
    matches!(app.setup().players[side.index()], Player::Human)
}

#[test]
fn a_person_opens_and_the_engine_takes_a_colour() {
    let mut app = swap_game("human", "alphabeta", OpeningRule::Swap1);
    assert!(app.message().contains("put 3 stones: 2 black (X), 1 white (O)"), "{}", app.message());
    assert!(screen(&mut app, 100, 30).contains("swap1: put 3 stones"));
    for cell in ["h8", "i8", "h10"] {
        type_text(&mut app, cell);
    }
    assert_eq!(app.pos().ply(), 3);
    tick_until(&mut app, "the engine's choice", |app| app.swap_phase().is_none());
    let opening = app.settled_opening().expect("settled").clone();
    assert_eq!(opening.steps.len(), 2);
    // Whichever colour the engine took, the person has the other, and the
    // panel and message say so.
    let engine_took = match opening.steps[1] {
        SwapStep::Took(side) => side,
        ref step => panic!("swap1 ends with a colour taken, not {step:?}"),
    };
    assert!(is_human(&app, engine_took.opponent()), "{:?}", app.setup().players);
    let said = if engine_took == Side::X { "takes black" } else { "takes white" };
    assert!(app.message().contains(said), "{}", app.message());
    // The opening's stones are not taken back.
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('U'));
    }
    assert!(app.pos().ply() >= 3);
}

#[test]
fn offered_the_stones_a_person_swaps_plays_on_or_puts_two_more() {
    // Swap: the person takes black, the engine (now white) moves.
    let mut app = swap_game("alphabeta", "human", OpeningRule::Swap2);
    tick_until(&mut app, "the engine's three stones", |app| app.pos().ply() == 3);
    assert!(app.message().contains("F puts 2 more"), "{}", app.message());
    press(&mut app, KeyCode::Char('X'));
    assert!(app.swap_phase().is_none());
    assert!(is_human(&app, Side::X));
    tick_until(&mut app, "white's fourth stone", |app| app.pos().ply() == 4);

    // Plays on: the person is white and its stone is the fourth.
    let mut app = swap_game("alphabeta", "human", OpeningRule::Swap2);
    tick_until(&mut app, "the engine's three stones", |app| app.pos().ply() == 3);
    let free = app.pos().legal_moves().next().unwrap().name(&app.setup().rules).to_string();
    type_text(&mut app, &free);
    assert_eq!(app.pos().ply(), 4);
    assert!(is_human(&app, Side::O));
    assert!(app.message().contains("you take white"), "{}", app.message());

    // Two more: then the engine, who opened, chooses.
    let mut app = swap_game("alphabeta", "human", OpeningRule::Swap2);
    tick_until(&mut app, "the engine's three stones", |app| app.pos().ply() == 3);
    press(&mut app, KeyCode::Char('F'));
    let free: Vec<String> =
        app.pos().legal_moves().take(2).map(|cell| cell.name(&app.setup().rules).to_string()).collect();
    for cell in &free {
        type_text(&mut app, cell);
    }
    assert_eq!(app.pos().ply(), 5);
    tick_until(&mut app, "the engine's choice", |app| app.swap_phase().is_none());
    let opening = app.settled_opening().unwrap();
    assert_eq!(opening.steps.len(), 3, "{opening:?}");
    // The opener (the engine) ended with the colour the record says.
    assert!(!is_human(&app, opening.opener));
}

#[test]
fn analysis_and_review_wait_for_the_opening() {
    let mut app = swap_game("human", "human", OpeningRule::Swap2);
    for key in ['A', 'V'] {
        press(&mut app, KeyCode::Char(key));
        assert!(app.message().contains("the opening is being decided"), "{}", app.message());
        assert!(!app.is_analysing() && app.review().is_none());
    }
}

#[test]
fn under_swap1_there_are_no_two_more_stones() {
    let mut app = swap_game("alphabeta", "human", OpeningRule::Swap1);
    tick_until(&mut app, "the engine's three stones", |app| app.pos().ply() == 3);
    press(&mut app, KeyCode::Char('F'));
    assert!(app.message().contains("only when three are offered under swap2"), "{}", app.message());
    assert!(app.swap_phase().is_some());
}

#[test]
fn a_game_file_keeps_the_opening_rule() {
    let mut app = swap_game("alphabeta", "human", OpeningRule::Swap2);
    tick_until(&mut app, "the engine's three stones", |app| app.pos().ply() == 3);
    press(&mut app, KeyCode::Char('X'));
    let file = tui::record::GameFile::of(app.setup(), app.pos(), None, (app.settled_opening(), None));
    assert_eq!(file.opening.as_deref(), Some("swap2"));
    // The person took black: X is the person's in the file.
    assert_eq!(file.x, "human");
    let loaded = file.setup(Duration::from_millis(50)).unwrap();
    assert_eq!((loaded.setup.opening, loaded.moves.len()), (OpeningRule::Swap2, 3));
    let bad = tui::record::GameFile { opening: Some("swap9".to_owned()), ..file };
    assert!(bad.setup(Duration::from_millis(50)).unwrap_err().to_string().contains("unknown opening rule"));
}

#[test]
fn the_opening_is_decided_off_the_clock() {
    let clock = "60".parse().unwrap();
    let mut app = App::new(tui::Setup {
        opening: OpeningRule::Swap1,
        clock: Some(clock),
        ..setup(Rules::gomoku15(), "human", "human")
    });
    type_text(&mut app, "h8");
    for _ in 0..10 {
        app.tick();
        std::thread::sleep(Duration::from_millis(5));
    }
    let now = Instant::now();
    let clocks = app.clocks().unwrap();
    assert_eq!(clocks.left(Side::X, now), Duration::from_mins(1));
    assert_eq!(clocks.left(Side::O, now), Duration::from_mins(1));
}

#[test]
fn opening_stones_that_make_a_line_are_refused_and_f_is_the_chooser_s() {
    // Tic-tac-toe, both players people: the fifth stone a3 would give X
    // a1 a2 a3.
    let mut app =
        App::new(tui::Setup { opening: OpeningRule::Swap2, ..setup(Rules::tic_tac_toe(), "human", "human") });
    for cell in ["a1", "b1", "a2"] {
        type_text(&mut app, cell);
    }
    press(&mut app, KeyCode::Char('F'));
    type_text(&mut app, "c3");
    type_text(&mut app, "a3");
    assert_eq!(app.pos().ply(), 4);
    assert!(app.message().contains("would make a line"), "{}", app.message());
    assert!(!app.over() && app.swap_phase().is_some());
    // Where an engine chooses, a person's F changes nothing.
    let mut app = swap_game("human", "alphabeta", OpeningRule::Swap2);
    press(&mut app, KeyCode::Char('P')); // the engine waits
    for cell in ["h8", "i8", "h10"] {
        type_text(&mut app, cell);
    }
    press(&mut app, KeyCode::Char('F'));
    assert_eq!(app.message(), "nothing to choose now");
    assert!(!app.swap_phase().unwrap().putting_two);
}
