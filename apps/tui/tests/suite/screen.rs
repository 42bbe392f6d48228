//! The game screen without a terminal: rendering into ratatui's
//! `TestBackend`, and keys handled directly.

use std::time::{Duration, Instant};

use board::{Outcome, Rules, Side};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use crate::common::{press, screen, setup, type_text};
use tui::{App, Heat, Player, ui};

/// Ticks until the engine has moved (or a few seconds pass).
fn wait_for_engine(app: &mut App) {
    let start = Instant::now();
    loop {
        app.tick();
        if app.thinking().is_none() && (app.human_to_move() || app.pos().is_over()) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the engine never moved");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn empty_boards_render_with_coordinates() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    let text = screen(&mut app, 50, 20);
    assert!(text.contains("    a b c"), "{text}");
    assert!(text.contains("  3 . . . 3"), "{text}");
    assert!(text.contains("  1 . . . 1"), "{text}");
    assert!(text.contains("X to move"));
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    let text = screen(&mut app, 90, 24);
    assert!(text.contains("    a b c d e f g h i j k l m n o"), "{text}");
    assert!(text.contains(" 15 . . . . . . . . . . . . . . . 15"), "{text}");
}

#[test]
fn a_wide_screen_draws_the_board_large_and_clicks_find_its_cells() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    type_text(&mut app, "h8");
    // 15 x 15 at 120 x 40: four columns and two rows a cell.
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("    a   b   c   d   e   f   g   h   i   j   k   l   m   n   o"), "{text}");
    assert!(text.contains(" 15 .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   15"), "{text}");
    assert!(text.contains("  8 .   .   .   .   .   .   .   x   .   .   .   .   .   .   .   8"), "{text}");
    // A blank row between two rows of cells, the panel beside the board.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[2].trim_start().starts_with('│'), "{text}");
    // A click on j10: column 4 + 4 * 9, row 1 + 2 * 5.
    app.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 40,
        row: 11,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(
        app.pos().last_move().map(|cell| cell.name(&app.setup().rules).to_string()).as_deref(),
        Some("j10")
    );
    // Narrower, the same game draws small again.
    assert!(screen(&mut app, 90, 40).contains("  8 . . . . . . . x . . . . . . . 8"));
}

#[test]
fn a_won_game_highlights_its_line() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    for name in ["a1", "a2", "b1", "b2", "c1"] {
        type_text(&mut app, name);
    }
    assert_eq!(app.pos().outcome(), Some(Outcome::Win(Side::X)));
    let text = screen(&mut app, 50, 20);
    assert!(text.contains("X wins"), "{text}");
    assert!(app.message().starts_with("x wins"), "{}", app.message());
    // The line's cells are drawn on green.
    let mut terminal = Terminal::new(TestBackend::new(50, 20)).unwrap();
    terminal.draw(|frame| ui::draw(frame, &app)).unwrap();
    let buffer = terminal.backend().buffer();
    // Row 1 is the fourth line; a1, b1, c1 at columns 4, 6, 8.
    for x in [4, 6, 8] {
        assert_eq!(buffer[(x, 3)].bg, ratatui::style::Color::Green, "column {x}");
    }
    assert_ne!(buffer[(4, 2)].bg, ratatui::style::Color::Green);
}

#[test]
fn a_small_window_asks_to_be_larger() {
    let mut app = App::new(setup(Rules::gomoku20(), "human", "human"));
    let text = screen(&mut app, 40, 10);
    assert!(text.contains("make the window larger"), "{text}");
}

#[test]
fn keys_move_the_cursor_and_place_marks() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    let rules = app.setup().rules;
    assert_eq!(app.cursor().name(&rules).to_string(), "b2");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Char('k'));
    assert_eq!(app.cursor().name(&rules).to_string(), "a3");
    press(&mut app, KeyCode::Left); // stays on the board
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(app.pos().moves().len(), 1);
    // Placing on a taken cell changes nothing and says why.
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.pos().moves().len(), 1);
    assert!(app.message().starts_with("cannot play a3"), "{}", app.message());
    type_text(&mut app, "z9");
    assert!(app.message().starts_with("cannot read"), "{}", app.message());
    // Unknown keys are ignored.
    press(&mut app, KeyCode::F(5));
    press(&mut app, KeyCode::Char('~'));
    assert_eq!(app.pos().moves().len(), 1);
    // Mouse: a click on c1 (row 1 is the fourth screen line, c at column 8).
    screen(&mut app, 50, 20);
    app.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 8,
        row: 3,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.pos().last_move().unwrap().name(&rules).to_string(), "c1");
}

#[test]
fn undo_takes_back_the_engine_reply_too_and_redo_replays() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "alphabeta"));
    type_text(&mut app, "b2");
    wait_for_engine(&mut app);
    assert_eq!(app.pos().moves().len(), 2);
    assert!(app.analysis().is_some());
    assert!(screen(&mut app, 50, 20).contains("for O"), "the value is O's: O moved");
    press(&mut app, KeyCode::Char('U'));
    assert_eq!(app.pos().moves().len(), 0);
    assert!(app.human_to_move());
    // The analysis was of a position no longer on the board.
    assert!(app.analysis().is_none());
    assert!(!screen(&mut app, 50, 20).contains("best "));
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(app.pos().moves().len(), 2);
}

#[test]
fn hint_new_game_and_help() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "perfect"));
    press(&mut app, KeyCode::Char('H'));
    let start = Instant::now();
    while app.hint().is_none() && start.elapsed() < Duration::from_secs(20) {
        app.tick();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(app.hint().is_some(), "{}", app.message());
    press(&mut app, KeyCode::Char('?'));
    assert!(screen(&mut app, 70, 24).contains("hint: the engine's suggestion"));
    press(&mut app, KeyCode::Char('x'));
    assert!(!app.showing_help());
    // New game: 8×8, engines on both sides.
    press(&mut app, KeyCode::Char('N'));
    press(&mut app, KeyCode::Right); // rules: 3×3 -> 8×8
    let names = tui::menu::player_names();
    let chosen = |app: &App, side: usize| app.menu().unwrap().chosen(side).to_owned();
    // O was the perfect player, who cannot play 8×8: it moved on.
    assert!(tui::menu::can_play(&chosen(&app, 1), &Rules::five_8x8()), "{}", chosen(&app, 1));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right); // X: human -> random
    press(&mut app, KeyCode::Enter);
    assert!(app.menu().is_none());
    assert_eq!(app.setup().rules, Rules::five_8x8());
    assert!(matches!(app.setup().players[0], Player::Engine(_)));
    // On 15×15 the dialog offers only engines that can play it.
    press(&mut app, KeyCode::Char('N'));
    press(&mut app, KeyCode::Right); // 15×15
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    let mut offered = Vec::new();
    for _ in 0..names.len() {
        press(&mut app, KeyCode::Right);
        offered.push(chosen(&app, 0));
    }
    assert!(offered.iter().any(|o| o == "alphabeta") && offered.iter().any(|o| o == "human"), "{offered:?}");
    for name in ["tree", "perfect", "matrix"] {
        assert!(!offered.iter().any(|o| o == name), "{name} offered for 15×15: {offered:?}");
    }
    // Bad custom rules are refused with the reason, wrapped in the box.
    press(&mut app, KeyCode::Up);
    for c in "15,15,99".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    let error = app.menu().expect("still open").error.clone();
    assert!(error.contains("custom rules"), "{error}");
    let text = screen(&mut app, 80, 30);
    let last_words: String = error.split_whitespace().last().unwrap().chars().take(6).collect();
    assert!(text.contains(&last_words), "the whole error shows: {text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.menu().is_none());
}

#[test]
fn save_and_load_round_trip() {
    let path = std::env::temp_dir().join(format!("tui-save-{}.json", std::process::id()));
    std::fs::write(&path, "someone's file").unwrap();
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    app.set_file(path.clone());
    for name in ["h8", "h9", "i9"] {
        type_text(&mut app, name);
    }
    // A file this session did not write is overwritten only on a second S.
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().contains("press S again"), "{}", app.message());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "someone's file");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().contains("press S again"), "another key in between asks again");
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().starts_with("saved"), "{}", app.message());
    // Its own file it saves over at once.
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().starts_with("saved"), "{}", app.message());
    let saved = app.pos().to_one_line();
    press(&mut app, KeyCode::Char('N'));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.pos().ply(), 0);
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.pos().to_one_line(), saved, "{}", app.message());
    std::fs::write(&path, "{not json").unwrap();
    press(&mut app, KeyCode::Char('L'));
    assert!(app.message().contains("is not a saved game"), "{}", app.message());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_whole_game_against_the_engine_ends_with_the_result() {
    // Tic-tac-toe against the perfect player: the person plays the first
    // empty cell in order each turn and cannot win.
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "perfect"));
    while !app.pos().is_over() {
        let cell = app.pos().legal_moves().next().unwrap();
        let name = cell.name(&app.setup().rules).to_string();
        type_text(&mut app, &name);
        wait_for_engine(&mut app);
    }
    assert_eq!(app.pos().outcome(), Some(Outcome::Win(Side::O)));
    assert!(app.message().starts_with("o wins"), "{}", app.message());
    assert!(screen(&mut app, 50, 20).contains("O wins"));
}

#[test]
fn the_heat_map_shows_scores_then_means_then_nothing() {
    // MCTS gives visit shares and, beside them, each move's mean.
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "mcts:iterations=2000,seed=1"));
    type_text(&mut app, "a1");
    wait_for_engine(&mut app);
    let analysis = app.analysis().cloned().expect("the engine's analysis");
    assert!(!analysis.values.is_empty());
    let scored = analysis.scores.iter().find(|s| app.pos().get(s.cell).is_none()).unwrap().cell;
    app.set_cursor(scored);
    let name = scored.name(&app.setup().rules).to_string();
    assert_eq!(app.heat(), Heat::Off);
    press(&mut app, KeyCode::Char('T'));
    assert_eq!(app.heat(), Heat::Scores);
    let text = screen(&mut app, 50, 20);
    assert!(text.contains(&format!("cursor {name}: visits ")) && text.contains(", mean "), "{text}");
    assert!(text.contains("heat: scores"), "{text}");
    assert!(text.contains("worst") && text.contains("best  + its move"), "a legend: {text}");
    let best = analysis.best_move.unwrap();
    assert!(app.pos().get(best).is_some(), "the engine played its best move");

    press(&mut app, KeyCode::Char('T'));
    assert_eq!(app.heat(), Heat::Values);
    assert!(screen(&mut app, 50, 20).contains("heat: values"));
    press(&mut app, KeyCode::Char('T'));
    assert_eq!(app.heat(), Heat::Off);

    // A proven loss reads as one, and the engine's choice is marked.
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    let cell = |name: &str| app.setup().rules.parse_cell(name).unwrap();
    let (b2, a1, c3) = (cell("b2"), cell("a1"), cell("c3"));
    let score = |cell, score| play::CellScore { cell, score };
    app.show_analysis(Some(play::Analysis {
        best_move: Some(b2),
        scores: vec![score(b2, 10.0), score(a1, -1_999_999_996.0), score(c3, 3.0)],
        ..play::Analysis::default()
    }));
    app.set_heat(Heat::Scores);
    app.set_cursor(a1);
    let text = screen(&mut app, 50, 20);
    assert!(text.contains("cursor a1: eval loss in 4"), "{text}");
    assert!(text.lines().any(|line| line.trim_start().starts_with("2 . + .")), "{text}");

    // The pattern player gives scores only: T goes from them straight to off.
    let mut app = App::new(setup(Rules::five_8x8(), "human", "pattern"));
    type_text(&mut app, "d4");
    wait_for_engine(&mut app);
    assert!(app.analysis().is_some_and(|a| a.values.is_empty() && !a.scores.is_empty()));
    press(&mut app, KeyCode::Char('T'));
    assert_eq!(app.heat(), Heat::Scores);
    press(&mut app, KeyCode::Char('T'));
    assert_eq!(app.heat(), Heat::Off);
}

#[test]
fn a_learning_engine_learns_from_each_finished_game_and_says_so() {
    let table = std::env::temp_dir().join(format!("mnk-tui-learning-{}.table", std::process::id()));
    let _ = std::fs::remove_file(&table);
    let engine = format!("matrix:learn=true,games=0,table={}", table.display());
    let game = setup(Rules::tic_tac_toe(), "human", &engine);
    let mut app = App::new(game.clone());
    assert_eq!([app.learning(board::Side::X), app.learning(board::Side::O)], [None, Some(0)]);
    assert!(screen(&mut app, 70, 20).contains("learned from 0 games this session"));
    let play_out = |app: &mut App| {
        while !app.pos().is_over() {
            let cell = app.pos().legal_moves().next().unwrap();
            type_text(app, &cell.name(&app.setup().rules).to_string());
            wait_for_engine(app);
        }
    };
    play_out(&mut app);
    assert_eq!(
        [app.learning(board::Side::X), app.learning(board::Side::O)],
        [None, Some(1)],
        "{}",
        app.message()
    );
    assert!(table.exists(), "the table is saved after the game");
    assert!(screen(&mut app, 70, 20).contains("learned from 1 game this session"));
    // Taken back after its end and finished again: another game.
    press(&mut app, KeyCode::Char('U'));
    assert!(!app.pos().is_over());
    assert_eq!(
        [app.learning(board::Side::X), app.learning(board::Side::O)],
        [None, Some(1)],
        "an unfinished game teaches nothing"
    );
    press(&mut app, KeyCode::Char('R'));
    assert!(app.pos().is_over());
    assert_eq!([app.learning(board::Side::X), app.learning(board::Side::O)], [None, Some(2)]);
    // A new game from the menu, players as they were, goes on with the
    // same table.
    press(&mut app, KeyCode::Char('N'));
    assert_eq!(app.menu().unwrap().chosen(1), engine);
    press(&mut app, KeyCode::Enter);
    assert_eq!([app.learning(board::Side::X), app.learning(board::Side::O)], [None, Some(2)]);
    play_out(&mut app);
    assert_eq!([app.learning(board::Side::X), app.learning(board::Side::O)], [None, Some(3)]);
    // The same players again keep the table; read again from its file
    // (another session), it goes on from there and counts afresh.
    app.new_game(game);
    assert_eq!([app.learning(board::Side::X), app.learning(board::Side::O)], [None, Some(3)]);
    app.new_game(setup(Rules::tic_tac_toe(), "human", &engine));
    assert_eq!([app.learning(board::Side::X), app.learning(board::Side::O)], [None, Some(0)]);
    let _ = std::fs::remove_file(&table);
}

#[test]
fn a_monte_carlo_analysis_shows_its_winning_chance_and_its_proofs() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    let cell = |name: &str| app.setup().rules.parse_cell(name).unwrap();
    let (b2, a1) = (cell("b2"), cell("a1"));
    let score = |cell, score| play::CellScore { cell, score };
    let mut analysis = play::Analysis {
        best_move: Some(b2),
        scores: vec![score(b2, 0.75), score(a1, 0.25)],
        score_kind: play::ScoreKind::VisitShare,
        values: vec![score(b2, 0.6), score(a1, 0.2)],
        value: Some(0.6),
        line: vec![b2, a1],
        ..play::Analysis::default()
    };
    app.show_analysis(Some(analysis.clone()));
    app.set_cursor(a1);
    let text = screen(&mut app, 70, 20);
    assert!(text.contains("best b2  value 60% expected for X"), "{text}");
    // The solver proved b2 wins and a1 loses.
    analysis.proven = vec![score(b2, 1.0), score(a1, -1.0)];
    app.show_analysis(Some(analysis));
    let text = screen(&mut app, 70, 20);
    assert!(text.contains("best b2  value proven win"), "{text}");
    assert!(text.contains("cursor a1: visits 25%, mean 20% proven loss"), "{text}");
}

#[test]
fn move_numbers_show_on_the_stones_when_asked() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    for name in ["b2", "a1", "c3"] {
        type_text(&mut app, name);
    }
    assert!(screen(&mut app, 50, 20).contains("  2 . x . 2"), "stones as marks at first");
    press(&mut app, KeyCode::Char('#'));
    let text = screen(&mut app, 50, 20);
    assert!(text.contains("  2 .  1. 2"), "{text}");
    assert!(text.contains("  1  2. . 1"), "{text}");
    press(&mut app, KeyCode::Char('#'));
    assert!(screen(&mut app, 50, 20).contains("  1 o . . 1"));
}

#[test]
fn long_text_wraps_in_the_panel_and_the_message_line() {
    let mut app = App::new(tui::Setup {
        opening: play::OpeningRule::Soosorv8,
        ..setup(Rules::renju(), "human", "human")
    });
    assert!(app.message().len() > 120, "{}", app.message());
    let text = screen(&mut app, 120, 32);
    // The step's prompt ends both in the panel and on the message line.
    assert_eq!(text.matches("of 3 put").count(), 2, "{text}");
    assert!(text.lines().all(|line| line.chars().count() <= 120));
    // The keys line stays the last.
    assert!(text.trim_end().lines().last().unwrap().contains("? help"), "{text}");
}
