//! An analysis database beside the game: what the board and the panel
//! show of it, the keys that edit it, and analysis writing to it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use analysis_db::{Database, Record};
use board::{Position, Rules};
use play::analysis_store::{Bound, Label};
use ratatui::crossterm::event::KeyCode;

use crate::common::{press, screen, setup, tick_until, type_text};
use tui::App;

/// A database file of this test's own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let scratch = Scratch(std::env::temp_dir().join(format!("mnk-tui-db-{}-{name}", std::process::id())));
        scratch.remove();
        scratch
    }
    fn remove(&self) {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", self.0.display()));
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.remove();
    }
}

fn pos(moves: &str) -> Position {
    Position::from_moves(Rules::gomoku15(), moves).unwrap()
}

/// The board row of `number` (15 at the top) on the screen.
fn row(text: &str, number: u32) -> String {
    text.lines().find(|line| line.starts_with(&format!("{number:>3} "))).unwrap_or_default().to_owned()
}

#[test]
fn the_board_and_panel_show_what_the_database_holds() {
    let file = Scratch::new("show");
    {
        let mut database = Database::open(&file.0).unwrap();
        database.put(&pos("h8"), &Record { comment: "the centre".to_owned(), ..Record::default() }).unwrap();
        // After h8: i9 wins for its mover (its side to move loses), h9 is
        // an even-ish value, and a text sits on k8.
        database.put(&pos("h8 i9"), &Record::labelled(Label::Loss)).unwrap();
        database.put(&pos("h8 h9"), &Record::valued(-1130, 9, Bound::Exact)).unwrap();
        let mut own = database.get(&pos("h8")).unwrap().unwrap();
        own.texts.push((Rules::gomoku15().parse_cell("k8").unwrap(), "ab".to_owned()));
        database.put(&pos("h8"), &own).unwrap();
    }
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    app.open_database(&file.0).unwrap();
    type_text(&mut app, "h8");
    let text = screen(&mut app, 110, 32);
    // Row 9: g9 and i9 (mirror images: one record) win; h9 and its
    // images show the mover's chance in tenths (73%: 7).
    assert!(row(&text, 9).contains(". W 7 W ."), "{text}");
    assert!(row(&text, 8).contains("7 x 7 . a"), "{text}");
    assert!(row(&text, 7).contains(". W 7 W ."), "{text}");
    assert!(text.contains("database mnk-tui-db-"), "{text}");
    assert!(text.contains("this position: kept") && text.contains("the centre"), "{text}");
    // The cursor's point in words.
    app.set_cursor(Rules::gomoku15().parse_cell("i9").unwrap());
    assert!(screen(&mut app, 110, 32).contains("i9: the move wins"), "{}", screen(&mut app, 110, 32));
    // Another program (here another handle) writes the move j10 a win:
    // the board shows it at once, without leaving the position.
    Database::open(&file.0).unwrap().put(&pos("h8 j10"), &Record::labelled(Label::Loss)).unwrap();
    let text = screen(&mut app, 110, 32);
    assert!(row(&text, 10).contains('W'), "{text}");
    // Taken back: the empty board's moves (h8 is kept, without a label).
    press(&mut app, KeyCode::Char('U'));
    let text = screen(&mut app, 110, 32);
    assert!(!row(&text, 9).contains('W'), "{text}");
}

#[test]
fn keys_label_comment_write_and_mark() {
    let file = Scratch::new("keys");
    let other = Scratch::new("keys-other");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    // Without a database the editing keys say how to open one.
    press(&mut app, KeyCode::Char('C'));
    assert!(app.message().contains("open one with D"), "{}", app.message());
    press(&mut app, KeyCode::Char('D'));
    press(&mut app, KeyCode::Backspace);
    type_text(&mut app, &file.0.display().to_string());
    assert!(app.message().starts_with("database "), "{}", app.message());
    type_text(&mut app, "h8");
    let rules = Rules::gomoku15();
    app.set_cursor(rules.parse_cell("j10").unwrap());
    // B twice: the move wins, then loses.
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(app.message(), "j10: the move wins");
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(app.message(), "j10: the move loses");
    press(&mut app, KeyCode::Char('G'));
    press(&mut app, KeyCode::Char('C'));
    type_text(&mut app, "first line\\nsecond");
    press(&mut app, KeyCode::Char('E'));
    assert!(screen(&mut app, 110, 32).contains("text on j10"), "the dialog names its point");
    type_text(&mut app, "A1");
    let database = Database::open_read_only(&file.0).unwrap();
    assert_eq!(database.get(&pos("h8 j10")).unwrap().unwrap().label, Label::Win);
    let own = database.get(&pos("h8")).unwrap().unwrap();
    assert!(own.marked);
    assert_eq!(own.comment, "first line\nsecond");
    // h8 is symmetric: one text, shown on j10 and its images.
    assert_eq!(own.texts.len(), 1);
    assert_eq!(own.text_at(&pos("h8"), rules.parse_cell("j10").unwrap()), Some("A1"));
    let text = screen(&mut app, 110, 32);
    assert!(text.contains("first line") && text.contains("second") && text.contains("marked"), "{text}");
    // An emptied comment is removed.
    press(&mut app, KeyCode::Char('C'));
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Enter);
    assert_eq!(database.get(&pos("h8")).unwrap().unwrap().comment, "");
    // A file that is not a database is refused, the one open kept.
    std::fs::write(&other.0, "not a database").unwrap();
    press(&mut app, KeyCode::Char('D'));
    press(&mut app, KeyCode::Backspace);
    type_text(&mut app, &other.0.display().to_string());
    assert!(app.message().contains("not an mnk analysis database"), "{}", app.message());
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.study().map(|study| study.path().to_owned()), Some(file.0.clone()));
}

#[test]
fn analysis_writes_what_it_finds() {
    let file = Scratch::new("analysis");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    app.open_database(&file.0).unwrap();
    type_text(&mut app, "h8");
    type_text(&mut app, "i9");
    press(&mut app, KeyCode::Char('A'));
    let here = pos("h8 i9");
    // The search writes back when it ends: stopped once it is deep enough.
    tick_until(&mut app, "an analysis of depth 5", |app| {
        app.analysis().and_then(|analysis| analysis.depth).is_some_and(|depth| depth >= 5)
    });
    press(&mut app, KeyCode::Char('A'));
    let database = Database::open_read_only(&file.0).unwrap();
    let start = Instant::now();
    let kept = loop {
        if let Some(record) = database.get(&here).unwrap().filter(|record| record.depth.is_some()) {
            break record;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "analysis wrote nothing");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(kept.depth.unwrap() >= 4, "{kept:?}");
    assert!(kept.value.is_some(), "{kept:?}");
}

#[test]
fn review_reads_the_database_as_it_steps() {
    let file = Scratch::new("review");
    {
        let mut database = Database::open(&file.0).unwrap();
        database
            .put(&pos("h8"), &Record { comment: "after the first move".to_owned(), ..Record::default() })
            .unwrap();
    }
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    app.open_database(&file.0).unwrap();
    type_text(&mut app, "h8");
    type_text(&mut app, "i9");
    press(&mut app, KeyCode::Char('V'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("review by") && text.contains("this position: not in it"), "{text}");
    press(&mut app, KeyCode::Left);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("after the first move"), "{text}");
}

#[test]
fn the_new_game_dialog_opens_and_closes_a_database() {
    let file = Scratch::new("dialog");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    press(&mut app, KeyCode::Char('N'));
    // The last row, up from the first.
    press(&mut app, KeyCode::Up);
    assert_eq!(app.menu().map(tui::menu::Menu::row), Some(tui::menu::Row::Database));
    assert!(screen(&mut app, 110, 32).contains("database (none"), "{}", screen(&mut app, 110, 32));
    type_text(&mut app, &file.0.display().to_string());
    assert!(app.menu().is_none(), "{}", app.message());
    assert_eq!(app.study().map(|study| study.path().to_owned()), Some(file.0.clone()));
    // Emptied: the next game has none.
    press(&mut app, KeyCode::Char('N'));
    press(&mut app, KeyCode::Up);
    for _ in 0..file.0.display().to_string().len() {
        press(&mut app, KeyCode::Backspace);
    }
    press(&mut app, KeyCode::Enter);
    assert!(app.study().is_none());
}
