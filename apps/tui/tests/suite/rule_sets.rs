//! Renju and caro in the terminal game: the forbidden points drawn while
//! black is to move, a forbidden move refused with its reason.

use board::{Rules, Side};
use ratatui::crossterm::event::KeyCode;
use tui::App;

use crate::common::{press, screen, setup, type_text};

#[test]
fn renju_shows_and_refuses_black_s_forbidden_points() {
    let mut app = App::new(setup(Rules::renju(), "human", "human"));
    // Black f8 g8 h6 h7, white far away: h8 is a double three.
    for (black, white) in [("f8", "a1"), ("g8", "a3"), ("h6", "a5"), ("h7", "a7")] {
        type_text(&mut app, black);
        type_text(&mut app, white);
    }
    assert_eq!(app.pos().side_to_move(), Side::X);
    let text = screen(&mut app, 110, 30);
    assert!(text.contains("renju: ×"), "{text}");
    assert_eq!(text.matches('×').count(), 2, "the legend's and h8's: {text}");
    type_text(&mut app, "h8");
    assert_eq!(app.pos().ply(), 8, "refused");
    assert!(app.message().contains("h8 is forbidden for black: double three"), "{}", app.message());
    // White to move: nothing is marked.
    type_text(&mut app, "o15");
    press(&mut app, KeyCode::Char('?'));
    press(&mut app, KeyCode::Esc);
    assert_eq!(screen(&mut app, 110, 30).matches('×').count(), 1, "the legend only");
}

#[test]
fn an_engine_that_cannot_play_the_rules_is_refused_at_the_start() {
    let caro_freestyle = Rules::caro().with_rule_set(board::RuleSet::CaroFreestyle);
    let error = setup(caro_freestyle, "human", "alphabeta").check().unwrap_err();
    assert!(error.contains("not caro-freestyle"), "{error}");
    let mcts = setup(caro_freestyle, "human", "mcts").check();
    assert!(mcts.is_ok(), "{mcts:?}");
    assert!(setup(Rules::caro(), "human", "alphabeta").check().is_ok());
}
