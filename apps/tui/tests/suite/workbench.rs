//! The terminal game as a workbench, through ratatui's `TestBackend`:
//! analysis mode, clocks, review with its graph, SGF files, and an
//! external brain from the menu.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use board::{Rules, Side};
use play::Limits;
use ratatui::crossterm::event::KeyCode;
use tui::engine::Purpose;

use crate::common::{press, screen, setup, tick_until, type_text};
use tui::{App, Player};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tui-workbench-{}-{name}", std::process::id()))
}

#[test]
fn analysis_mode_shows_the_engine_thinking_live_and_restarts_on_each_move() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    for name in ["h8", "h9", "i8", "i9", "j8"] {
        type_text(&mut app, name);
    }
    press(&mut app, KeyCode::Char('A'));
    assert!(app.is_analysing() && app.message().starts_with("analysing with alphabeta"), "{}", app.message());
    // The first published view arrives while the engine still thinks.
    tick_until(&mut app, "a live analysis", |app| {
        app.analysis().is_some() && app.thinking().is_some_and(|t| t.purpose == Purpose::Analysis)
    });
    let text = screen(&mut app, 100, 26);
    assert!(text.contains("analysis by alphabeta"), "{text}");
    assert!(text.contains("analysing") && text.contains("n/s"), "{text}");
    // X threatens an open four: the engine sees O must block (g8 or k8).
    let analysis = app.analysis().cloned().unwrap();
    let best = analysis.best_move.unwrap().name(&app.setup().rules).to_string();
    assert!(["g8", "k8"].contains(&best.as_str()), "{best}: {analysis:?}");
    assert!(text.contains(&format!("best {best}")), "{text}");
    // An evaluation shows the winning chance it stands for.
    assert!(analysis.win_in.is_some() || text.contains("% to win) for O"), "{text}");
    // O's move elsewhere: the analysis starts over on the new position.
    type_text(&mut app, "a1");
    assert_eq!(app.pos().ply(), 6, "{}", app.message());
    tick_until(&mut app, "the new position analysed", |app| {
        app.thinking().is_some_and(|t| t.key == app.pos().hash()) && app.analysis().is_some()
    });
    // X wins with an open four (g8 or k8): a proven win.
    tick_until(&mut app, "a win found", |app| app.analysis().is_some_and(|a| a.win_in.is_some()));
    assert!(screen(&mut app, 100, 26).contains("win in"), "{}", screen(&mut app, 100, 26));
    // Undo steps back one move; A again ends the mode.
    press(&mut app, KeyCode::Char('U'));
    assert_eq!(app.pos().ply(), 5);
    press(&mut app, KeyCode::Char('A'));
    assert!(!app.is_analysing() && app.thinking().is_none());
    // The heat map analysis turned on goes off with it.
    assert_eq!(app.heat(), tui::Heat::Off);
}

#[test]
fn analysis_mode_shows_several_best_lines_and_plus_minus_set_how_many() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    for name in ["h8", "h9", "i8", "i9"] {
        type_text(&mut app, name);
    }
    press(&mut app, KeyCode::Char('+'));
    assert!(app.message().contains("analysis mode (A)"), "{}", app.message());
    press(&mut app, KeyCode::Char('A'));
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('+'));
    }
    assert_eq!(app.analysis_line_count(), 4);
    assert!(app.message().contains("best 4 lines"), "{}", app.message());
    // The first set (a second's search) comes back as four distinct lines.
    tick_until(&mut app, "the first set of lines", |app| app.shown_lines().len() == 4);
    let lines = app.shown_lines().to_vec();
    let moves: Vec<_> = lines.iter().map(|line| line.best_move.unwrap()).collect();
    assert!((0..4).all(|i| (i + 1..4).all(|j| moves[i] != moves[j])), "{moves:?}");
    // The first is the best: the analysis above the lines is its.
    assert_eq!(app.analysis().and_then(|analysis| analysis.best_move), Some(moves[0]));
    let text = screen(&mut app, 100, 40);
    assert!(text.contains("best 4 lines (+/-)"), "{text}");
    let first = moves[0].name(&app.setup().rules).to_string();
    assert!(text.lines().any(|row| row.contains("1. ") && row.contains(&first)), "{text}");
    // The next set searches longer, on the same position.
    assert!(app.thinking().is_some_and(|t| t.purpose == Purpose::Analysis), "the next set runs");
    // Back to one line: the sets are gone, one search deepens.
    for _ in 0..5 {
        press(&mut app, KeyCode::Char('-'));
    }
    assert_eq!(app.analysis_line_count(), 1);
    assert!(app.message().contains("1 to 5 lines"), "{}", app.message());
    assert!(app.shown_lines().is_empty());
    assert!(!screen(&mut app, 100, 40).contains("lines (+/-)"));
}

#[test]
fn an_engine_that_cannot_be_stopped_says_so_and_another_analyses() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "minimax"));
    press(&mut app, KeyCode::Char('A'));
    assert!(
        app.message().contains("minimax does not think until stopped, so alphabeta analyses"),
        "{}",
        app.message()
    );
    assert_eq!(app.analysis_engine(), Some("alphabeta"));
    // Two people: the default engine analyses.
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    press(&mut app, KeyCode::Char('A'));
    assert_eq!(app.analysis_engine(), Some("alphabeta"), "{}", app.message());
    // A position it has proven needs no more thought: the analysis ends by itself.
    for name in ["a1", "b2", "c3", "a3"] {
        type_text(&mut app, name);
    }
    tick_until(&mut app, "the analysis to finish", |app| {
        app.thinking().is_none() && app.analysis().is_some()
    });
    assert!(app.message().contains("analysis finished"), "{}", app.message());
}

#[test]
fn a_clock_game_ticks_for_the_side_to_move_and_a_fallen_flag_loses() {
    let mut setup = setup(Rules::gomoku15(), "human", "human");
    setup.clock = Some("2+0.5".parse().unwrap());
    let mut app = App::new(setup);
    app.tick();
    let text = screen(&mut app, 100, 26);
    assert!(text.contains("clock 2+0.5") && text.contains("clock 2.0"), "{text}");
    type_text(&mut app, "h8");
    // X moved within its two seconds: it gained the increment.
    let clocks = app.clocks().unwrap();
    assert!(clocks.left(Side::X, Instant::now()) > Duration::from_secs(2), "the increment was added");
    // O lets its two seconds run out.
    std::thread::sleep(Duration::from_millis(2100));
    app.tick();
    assert_eq!(app.lost_on_time(), Some(Side::O));
    assert!(app.over());
    assert!(app.message().contains("O's time ran out: X wins on time"), "{}", app.message());
    let text = screen(&mut app, 100, 26);
    assert!(text.contains("X wins on time") && text.contains("flag fell"), "{text}");
    type_text(&mut app, "h9");
    assert_eq!(app.pos().ply(), 1, "no move after the flag");
    // The record says so, in our file and in SGF, and loads back so.
    for name in ["flag.json", "flag.sgf"] {
        let path = temp(name);
        app.set_file(path.clone());
        press(&mut app, KeyCode::Char('S'));
        assert!(app.message().starts_with("saved"), "{}", app.message());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("B+T"), "{text}");
        let loaded = tui::record::load(&path, 1, Duration::from_secs(1)).unwrap();
        assert_eq!(loaded.lost_on_time, Some(Side::O));
        let again = App::loaded(loaded);
        assert_eq!(again.lost_on_time(), Some(Side::O));
        assert!(again.review().is_some(), "a finished game opens in review");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn engines_think_within_their_clocks() {
    let mut setup = setup(Rules::new(9, 9, 5, board::RuleSet::Freestyle).unwrap(), "alphabeta", "mcts");
    setup.clock = Some("4+0.05".parse().unwrap());
    let mut app = App::new(setup);
    tick_until(&mut app, "a few moves", |app| app.pos().ply() >= 6 || app.over());
    assert_eq!(app.lost_on_time(), None, "{}", app.message());
    let clocks = app.clocks().unwrap();
    let now = Instant::now();
    for side in Side::ALL {
        assert!(clocks.left(side, now) < Duration::from_millis(4150), "{side:?} was charged");
    }
}

#[test]
fn review_draws_the_graph_steps_through_the_game_and_lists_mistakes() {
    let mut app = App::new(setup(Rules::tic_tac_toe(), "human", "human"));
    app.set_review_limits(Limits::nodes(20_000));
    // O's a2 beside X's centre loses: X c1 forces a3, then a1 forks.
    for name in ["b2", "a2", "c1", "a3", "a1", "c3", "b1"] {
        type_text(&mut app, name);
    }
    assert!(app.over());
    press(&mut app, KeyCode::Char('V'));
    let review = app.review().expect("reviewing");
    assert_eq!((app.pos().ply(), review.moves.len()), (7, 7));
    tick_until(&mut app, "every position evaluated", |app| app.review().unwrap().done());
    let review = app.review().unwrap();
    let chances = review.chances();
    assert_eq!(chances[7], Some(1.0), "X won");
    // The engine proves X's win from O's a2 on: O's one mistake, half a game.
    let mistakes = review.mistakes(4);
    assert_eq!(mistakes.len(), 1, "{chances:?}");
    assert_eq!((mistakes[0].number, mistakes[0].side), (2, Side::O));
    assert!((mistakes[0].cost - 0.5).abs() < 0.05, "{chances:?}");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    assert_eq!(app.pos().ply(), 5);
    let text = screen(&mut app, 90, 26);
    // One numbering: moves of two stones, X's half `3.`, O's `1…`.
    assert!(text.contains("review by alphabeta") && text.contains("move 3: x"), "{text}");
    assert!(text.contains("(of 4 moves)") && !text.contains("ply"), "{text}");
    assert!(text.contains("  1… o a2"), "O's mistake at its move: {text}");
    assert!(text.contains("mistakes") && text.contains("X's chance"), "{text}");
    assert!(text.contains('½'), "the graph's axis: {text}");
    // Moves cannot be made in review; Home and End jump.
    type_text(&mut app, "c2");
    assert_eq!(app.pos().ply(), 5);
    press(&mut app, KeyCode::Home);
    assert_eq!(app.pos().ply(), 0);
    press(&mut app, KeyCode::End);
    assert_eq!(app.pos().ply(), 7);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Char('V'));
    assert!(app.review().is_none());
    assert_eq!(app.pos().ply(), 7, "leaving the review restores the game");
}

#[test]
fn sgf_games_save_and_load_through_the_app() {
    let path = temp("game.sgf");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "alphabeta"));
    app.set_file(path.clone());
    type_text(&mut app, "h8");
    tick_until(&mut app, "the engine's reply", |app| app.pos().ply() == 2);
    press(&mut app, KeyCode::Char('S'));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("(;FF[4]GM[4]") && text.contains("PB[human]PW[alphabeta]"), "{text}");
    let moves = app.pos().moves().to_vec();
    press(&mut app, KeyCode::Char('N'));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.pos().moves(), moves, "{}", app.message());
    assert!(app.message().contains("game 1 of 1"), "{}", app.message());
    // Said as a game loaded, with its moves, not as a new one.
    assert!(app.message().contains(".sgf — 15,15,5 — X human vs O alphabeta, 2 moves"), "{}", app.message());
    std::fs::remove_file(&path).unwrap();
    // A collection from another program: players that are not our
    // engines load as people; a finished game opens in review.
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/play/tests/data/c-gomoku-cli.sgf");
    let loaded = tui::record::load(&fixture, 16, Duration::from_secs(1)).unwrap();
    assert!(loaded.note.as_deref().unwrap().starts_with("game 16 of 16"));
    let mut app = App::loaded(loaded);
    // As `--load FILE` says it: the file, and the game it holds.
    app.loaded_from(fixture.clone());
    assert!(
        app.message().starts_with("loaded ") && app.message().contains("c-gomoku-cli.sgf — "),
        "{}",
        app.message()
    );
    assert!(!app.message().contains("new game"), "{}", app.message());
    assert!(matches!(app.setup().players, [Player::Human, Player::Human]));
    assert!(app.review().is_some() && app.pos().is_over());
    // A file naming an external brain does not start it: a person plays.
    let path = temp("external.sgf");
    std::fs::write(&path, "(;GM[4]SZ[15]PB[external:path=/bin/sh]PW[alphabeta];B[hh])").unwrap();
    let loaded = tui::record::load(&path, 1, Duration::from_secs(1)).unwrap();
    assert!(matches!(loaded.setup.players[0], Player::Human));
    assert_eq!(loaded.setup.players[1].text(), "alphabeta");
    std::fs::remove_file(&path).unwrap();
    let error = tui::record::load(&fixture, 17, Duration::from_secs(1)).unwrap_err().to_string();
    assert!(error.contains("holds 16 game(s), not game 17"), "{error}");
}

#[test]
fn a_saved_game_never_starts_a_program_or_writes_where_it_says() {
    let touched = temp("pwned");
    let table = temp("learned.table");
    // Our JSON naming a program: a person plays X, and the note says why.
    let json = temp("hostile.json");
    let program = format!("external:path=/bin/touch,args={}", touched.display());
    let game = tui::record::GameFile {
        rules: "15,15,5".to_owned(),
        x: program.clone(),
        o: "alphabeta".to_owned(),
        clock: None,
        result: None,
        level: None,
        opening: None,
        // X to move: the program would be asked at the first tick.
        moves: Vec::new(),
        swap: None,
        under_way: None,
    };
    game.save(&json).unwrap();
    let loaded = tui::record::load(&json, 1, Duration::from_secs(1)).unwrap();
    assert!(matches!(loaded.setup.players[0], Player::Human));
    assert_eq!(loaded.setup.players[1].text(), "alphabeta");
    let note = loaded.note.clone().unwrap();
    assert!(note.contains("x loads as a person") && note.contains("starts a program"), "{note}");
    let mut app = App::loaded(loaded);
    app.tick();
    // A learner whose table the file names: refused, in JSON and in SGF.
    let learner = format!("matrix:learn=true,games=0,table={}", table.display());
    let game = tui::record::GameFile { x: "human".to_owned(), o: learner.clone(), ..game };
    game.save(&json).unwrap();
    let loaded = tui::record::load(&json, 1, Duration::from_secs(1)).unwrap();
    assert!(matches!(loaded.setup.players, [Player::Human, Player::Human]));
    assert!(loaded.note.unwrap().contains("its option table names a file"));
    let sgf = temp("hostile.sgf");
    std::fs::write(
        &sgf,
        format!("(;GM[4]SZ[3]MNK[3,3,3]PB[human]PW[{learner}];B[aa];W[bb];B[ab];W[cc];B[ac])"),
    )
    .unwrap();
    let loaded = tui::record::load(&sgf, 1, Duration::from_secs(1)).unwrap();
    assert!(matches!(loaded.setup.players, [Player::Human, Player::Human]));
    let app = App::loaded(loaded);
    assert!(app.pos().is_over());
    drop(app);
    assert!(!touched.exists() && !table.exists());
    // A person may still name both on the command line or in the menu.
    assert!(Player::parse(&program).is_ok());
    for path in [json, sgf] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn an_external_brain_is_chosen_in_the_menu_and_its_path_remembered() {
    // A brain that answers START and nothing else: X (a person) moves first.
    let brain = temp("pbrain-quiet");
    std::fs::write(
        &brain,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in START*) echo OK;; END*) exit 0;; esac; done\n",
    )
    .unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&brain).status().unwrap();
    let config = temp("config/tui.json");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "alphabeta"));
    app.set_config_file(Some(config.clone()));
    press(&mut app, KeyCode::Char('N'));
    let rows = |app: &App| app.menu().map(tui::menu::Menu::row);
    while rows(&app) != Some(tui::menu::Row::O) {
        press(&mut app, KeyCode::Down);
    }
    while app.menu().unwrap().chosen(1) != "external" {
        press(&mut app, KeyCode::Right);
    }
    // Without a path it says what is missing.
    press(&mut app, KeyCode::Enter);
    assert!(app.menu().unwrap().error.contains("type the brain's path"));
    press(&mut app, KeyCode::Down);
    for c in brain.display().to_string().chars() {
        press(&mut app, KeyCode::Char(c));
    }
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("brain   /"), "{text}");
    press(&mut app, KeyCode::Enter);
    assert!(app.menu().is_none(), "{:?}", app.menu().map(|m| m.error.clone()));
    assert_eq!(app.setup().players[1].text(), format!("external:path={}", brain.display()));
    // Remembered for the next time.
    let remembered = std::fs::read_to_string(&config).unwrap();
    assert!(remembered.contains(&brain.display().to_string()), "{remembered}");
    let mut fresh = App::new(setup(Rules::gomoku15(), "human", "alphabeta"));
    fresh.set_config_file(Some(config.clone()));
    press(&mut fresh, KeyCode::Char('N'));
    assert_eq!(fresh.menu().unwrap().brain, brain.display().to_string());
    // A config file that does not read is kept, and the game says why.
    std::fs::write(&config, "{not json").unwrap();
    while rows(&fresh) != Some(tui::menu::Row::O) {
        press(&mut fresh, KeyCode::Down);
    }
    while fresh.menu().unwrap().chosen(1) != "external" {
        press(&mut fresh, KeyCode::Right);
    }
    press(&mut fresh, KeyCode::Enter);
    assert!(fresh.menu().is_none());
    assert!(fresh.message().contains("cannot remember the brain"), "{}", fresh.message());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), "{not json");
    drop(app);
    std::fs::remove_file(&brain).unwrap();
    std::fs::remove_dir_all(config.parent().unwrap()).unwrap();
}

#[test]
fn the_new_game_dialog_sets_a_clock() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "alphabeta"));
    press(&mut app, KeyCode::Char('N'));
    while app.menu().unwrap().row() != tui::menu::Row::Clock {
        press(&mut app, KeyCode::Down);
    }
    while tui::menu::CLOCKS[app.menu().unwrap().clock] != "300+2" {
        press(&mut app, KeyCode::Right);
    }
    assert!(screen(&mut app, 100, 30).contains("clock   < 300+2 s >"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.setup().clock.map(|clock| clock.to_string()).as_deref(), Some("300+2"));
    app.tick();
    let text = screen(&mut app, 100, 26);
    assert!(text.contains("clock 5:00") && text.contains("15,15,5  clock 300+2"), "{text}");
    // The dialog opens on the current clock.
    press(&mut app, KeyCode::Char('N'));
    assert_eq!(tui::menu::CLOCKS[app.menu().unwrap().clock], "300+2");
}

/// Types `text` into an open prompt (replacing what it holds) and presses Enter.
fn answer_prompt(app: &mut App, text: &str) {
    for _ in 0..200 {
        press(app, KeyCode::Backspace);
    }
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
}

#[test]
fn a_collection_keeps_its_games_and_new_names_come_from_a_prompt() {
    // Three games, the second with comments on its moves.
    let path = temp("collection.sgf");
    std::fs::write(
        &path,
        "(;GM[4]SZ[15]PB[a]PW[b];B[hh];W[ih])\n(;GM[4]SZ[15]PB[pbrain-x 1.0]PW[c];B[hh]C[first];W[hi]C[second])\n(;GM[4]SZ[15];B[aa])",
    )
    .unwrap();
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    // O opens the second game.
    press(&mut app, KeyCode::Char('O'));
    assert!(matches!(app.mode(), tui::Mode::Prompt(_)));
    answer_prompt(&mut app, &format!("{} 2", path.display()));
    assert_eq!(app.pos().ply(), 2, "{}", app.message());
    assert!(app.message().contains("game 2 of 3"), "{}", app.message());
    // A move more, then S: the game replaces game 2, the others stay, and
    // so do the comments of the moves it kept and the program's name.
    type_text(&mut app, "i9");
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().contains("as game 2 of 3, the others kept"), "{}", app.message());
    let games = play::sgf::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].moves.len(), 3);
    assert_eq!(games[1].moves[0].1.as_deref(), Some("first"));
    assert_eq!(games[1].players[0].as_deref(), Some("pbrain-x 1.0"));
    assert_eq!(games[2].moves.len(), 1, "the third game is as it was");
    // W saves a new game under a new name, and added to a collection it
    // goes after the games there.
    press(&mut app, KeyCode::Char('N'));
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "h8");
    press(&mut app, KeyCode::Char('W'));
    answer_prompt(&mut app, &path.display().to_string());
    assert!(app.message().contains("as game 4, after the others"), "{}", app.message());
    assert_eq!(play::sgf::parse(&std::fs::read_to_string(&path).unwrap()).unwrap().len(), 4);
    // …and saving again replaces that game, not adding a fifth.
    type_text(&mut app, "a1");
    press(&mut app, KeyCode::Char('S'));
    assert!(app.message().contains("as game 4 of 4"), "{}", app.message());
    // A JSON file there is replaced only on a second Enter; Esc keeps it.
    let json = temp("other.json");
    std::fs::write(&json, "someone's file").unwrap();
    press(&mut app, KeyCode::Char('W'));
    answer_prompt(&mut app, &json.display().to_string());
    assert!(app.message().contains("Enter again replaces it"), "{}", app.message());
    press(&mut app, KeyCode::Esc);
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "someone's file");
    press(&mut app, KeyCode::Char('W'));
    answer_prompt(&mut app, &json.display().to_string());
    press(&mut app, KeyCode::Enter);
    assert!(app.message().starts_with("saved to"), "{}", app.message());
    assert!(std::fs::read_to_string(&json).unwrap().contains("\"moves\""));
    // A file that does not open says why and stays in the prompt.
    press(&mut app, KeyCode::Char('O'));
    answer_prompt(&mut app, "/no/such/game.sgf");
    assert!(app.message().contains("cannot open /no/such/game.sgf"), "{}", app.message());
    press(&mut app, KeyCode::Esc);
    for file in [path, json] {
        std::fs::remove_file(file).unwrap();
    }
}

#[test]
fn esc_clears_typing_and_asks_once_before_quitting_an_unsaved_game() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    press(&mut app, KeyCode::Char('h'));
    press(&mut app, KeyCode::Esc);
    assert!(!app.quitting() && app.typed().is_empty(), "{}", app.message());
    // No moves: Esc quits at once.
    press(&mut app, KeyCode::Esc);
    assert!(app.quitting());
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    type_text(&mut app, "h8");
    press(&mut app, KeyCode::Esc);
    assert!(!app.quitting() && app.message().contains("not saved"), "{}", app.message());
    press(&mut app, KeyCode::Char('Q'));
    assert!(app.quitting());
    // Saved, it quits at once.
    let path = temp("quit.json");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    app.start_file(path.clone());
    type_text(&mut app, "h8");
    press(&mut app, KeyCode::Char('S'));
    press(&mut app, KeyCode::Esc);
    assert!(app.quitting(), "{}", app.message());
    std::fs::remove_file(path).unwrap();
}

#[test]
fn the_level_caps_what_an_engine_searches_and_is_kept_in_the_game_file() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "alphabeta"));
    press(&mut app, KeyCode::Char('N'));
    while app.menu().unwrap().row() != tui::menu::Row::Level {
        press(&mut app, KeyCode::Down);
    }
    // Left from full wraps round to the weakest.
    press(&mut app, KeyCode::Left);
    assert!(screen(&mut app, 100, 30).contains("level   < beginner: 200 positions a move at most >"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.setup().level, tui::Level::Beginner);
    assert!(screen(&mut app, 100, 26).contains("ms/move  level beginner"));
    // Whatever its time, the engine searches no more than the level lets it.
    let mut game = setup(Rules::gomoku15(), "human", "alphabeta");
    game.time = Duration::from_secs(30);
    game.level = tui::Level::Beginner;
    let mut app = App::new(game);
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, "the engine's reply", |app| app.pos().ply() >= 2);
    let nodes = app.analysis().map(|analysis| analysis.nodes);
    assert!(nodes.is_some_and(|nodes| nodes > 0 && nodes <= 400), "{nodes:?}");
    // The game file keeps the level; a level it does not know is an error.
    let file = tui::record::GameFile::of(app.setup(), app.pos(), None, (None, None));
    assert_eq!(file.level.as_deref(), Some("beginner"));
    let loaded = file.setup(Duration::from_secs(1)).unwrap();
    assert_eq!(loaded.setup.level, tui::Level::Beginner);
    let bad = tui::record::GameFile { level: Some("grandmaster".to_owned()), ..file };
    let error = bad.setup(Duration::from_secs(1)).unwrap_err().to_string();
    assert!(error.contains("unknown level \"grandmaster\"") && error.contains("beginner"), "{error}");
}

/// The text the open prompt holds, and whether it is still selected.
fn prompt_text(app: &App) -> (String, bool) {
    match app.mode() {
        tui::app::Mode::Prompt(prompt) => (prompt.text.clone(), prompt.selected),
        other => panic!("no prompt open: {other:?}"),
    }
}

#[test]
fn a_name_prompt_starts_selected_so_typing_replaces_it_and_ctrl_u_clears() {
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    let current = app.file().display().to_string();
    press(&mut app, KeyCode::Char('W'));
    assert_eq!(prompt_text(&app), (current.clone(), true));
    for c in "renju-test.sgf".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert_eq!(prompt_text(&app), ("renju-test.sgf".to_owned(), false), "typing replaced the name");
    app.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert_eq!(prompt_text(&app), (String::new(), false), "Ctrl-U cleared it and typed no u");
    press(&mut app, KeyCode::Esc);
    // An arrow keeps the name to edit; Backspace on a selected name clears it.
    press(&mut app, KeyCode::Char('O'));
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(prompt_text(&app).0, format!("{current}x"));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('W'));
    press(&mut app, KeyCode::Backspace);
    assert_eq!(prompt_text(&app), (String::new(), false));
    assert!(screen(&mut app, 100, 30).contains("Ctrl-U clears"));
}

#[test]
fn h_j_k_l_move_on_every_press_until_a_digit_and_a_coordinate_still_places() {
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    let start = app.cursor();
    for c in "lll".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert_eq!((app.cursor().x(), app.cursor().y()), (start.x() + 3, start.y()));
    assert_eq!(app.typed(), "l", "only the last letter is kept");
    press(&mut app, KeyCode::Char('j'));
    press(&mut app, KeyCode::Char('k'));
    press(&mut app, KeyCode::Char('h'));
    assert_eq!((app.cursor().x(), app.cursor().y()), (start.x() + 2, start.y()));
    // A letter then digits is a coordinate: `h8` Enter places at h8.
    type_text(&mut app, "h8");
    assert_eq!(
        app.pos().moves().first().map(|c| c.name(&Rules::gomoku15()).to_string()).as_deref(),
        Some("h8")
    );
    assert!(tui::app::KEYS.iter().any(|(keys, _)| keys.contains("h j k l")));
}

#[test]
fn open_and_load_ask_before_throwing_away_an_unsaved_game() {
    let saved = temp("ask-before-loading.json");
    let mut app = App::new(setup(Rules::gomoku15(), "human", "human"));
    app.loaded_from(saved.clone());
    type_text(&mut app, "h8");
    press(&mut app, KeyCode::Char('S'));
    type_text(&mut app, "i9");
    assert_eq!(app.pos().ply(), 2);
    // L asks first; another key forgets the question; L L loads.
    press(&mut app, KeyCode::Char('L'));
    assert!(app.message().contains("not saved: L again"), "{}", app.message());
    assert_eq!(app.pos().ply(), 2);
    press(&mut app, KeyCode::Char('#'));
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.pos().ply(), 2, "the question was forgotten, so L asked again");
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.pos().ply(), 1, "the saved game came back");
    // O asks too, then opens the prompt; with nothing unsaved it opens at once.
    type_text(&mut app, "i9");
    press(&mut app, KeyCode::Char('O'));
    assert!(matches!(app.mode(), tui::Mode::Playing), "asked, not opened");
    press(&mut app, KeyCode::Char('O'));
    assert!(matches!(app.mode(), tui::Mode::Prompt(_)));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('S'));
    press(&mut app, KeyCode::Char('O'));
    assert!(matches!(app.mode(), tui::Mode::Prompt(_)), "saved: no question");
}
