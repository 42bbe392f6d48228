//! Prints text captures of the workbench's screens, drawn as in the
//! terminal: a game at a level, the new-game dialog, the help, the
//! save-as prompt, analysis mode, a clock game, and a review with its
//! graph.
//! `cargo run --release -p tui --example captures`

use std::time::{Duration, Instant};

use board::Rules;
use play::Limits;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui::{App, Level, Player, Setup};

fn press(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn play(app: &mut App, moves: &str) {
    for name in moves.split_whitespace() {
        for c in name.chars() {
            press(app, KeyCode::Char(c));
        }
        press(app, KeyCode::Enter);
    }
}

/// Ticks the app for `time`.
fn run_for(app: &mut App, time: Duration) {
    let start = Instant::now();
    while start.elapsed() < time {
        app.tick();
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn main() {
    let people = || [Player::Human, Player::Human];
    // Playing: you against alphabeta at the club level, its reply in.
    let players = [Player::Human, Player::parse("alphabeta").expect("a spec")];
    let setup =
        Setup { level: Level::Club, ..Setup::new(Rules::gomoku15(), players, Duration::from_secs(1)) };
    let mut app = App::new(setup);
    for name in ["h8", "i9"] {
        play(&mut app, name);
        while !app.human_to_move() && !app.over() {
            run_for(&mut app, Duration::from_millis(50));
        }
    }
    println!("— playing, level club —\n{}\n", tui::ui::capture(&mut app, 100, 22));
    // The dialogs over it: a new game (N), the keys (?), save as (W).
    press(&mut app, KeyCode::Char('N'));
    println!("— new game (N) —\n{}\n", tui::ui::capture(&mut app, 100, 22));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('?'));
    println!("— help (?) —\n{}\n", tui::ui::capture(&mut app, 100, 30));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('W'));
    println!("— save as (W) —\n{}\n", tui::ui::capture(&mut app, 100, 22));
    press(&mut app, KeyCode::Esc);

    // Analysis mode, two seconds into a middle game.
    let mut app = App::new(Setup::new(Rules::gomoku15(), people(), Duration::from_secs(1)));
    play(&mut app, "h8 i9 i8 g8 j7 h9 g9 j10");
    press(&mut app, KeyCode::Char('A'));
    run_for(&mut app, Duration::from_secs(2));
    println!("— analysis mode (A), after 2 s —\n{}\n", tui::ui::capture(&mut app, 100, 22));
    press(&mut app, KeyCode::Char('A'));

    // A clock game: you against alphabeta at 60 s + 1 s a move.
    let players = [Player::Human, Player::parse("alphabeta").expect("a spec")];
    let mut setup = Setup::new(Rules::gomoku15(), players, Duration::from_secs(1));
    setup.clock = Some("60+1".parse().expect("a time control"));
    let mut app = App::new(setup);
    for name in ["h8", "i9", "g7"] {
        run_for(&mut app, Duration::from_millis(700));
        play(&mut app, name);
        while !app.human_to_move() && !app.over() {
            run_for(&mut app, Duration::from_millis(50));
        }
    }
    run_for(&mut app, Duration::from_millis(1500));
    println!("— a clock game (--clock 60+1) —\n{}\n", tui::ui::capture(&mut app, 100, 22));

    // Review of a finished game, alphabeta at 20,000 nodes a position.
    let mut app = App::new(Setup::new(Rules::gomoku15(), people(), Duration::from_secs(1)));
    app.set_review_limits(Limits::nodes(20_000));
    play(&mut app, "h8 h9 i8 i9 j8 g8 j9 k10 j10 j7 j11 j12 k11 l12 i11 h11 l11");
    press(&mut app, KeyCode::Char('V'));
    while !app.review().is_some_and(tui::review::Review::done) {
        run_for(&mut app, Duration::from_millis(50));
    }
    for _ in 0..6 {
        press(&mut app, KeyCode::Left);
    }
    println!("— review (V) —\n{}", tui::ui::capture(&mut app, 100, 24));
}
