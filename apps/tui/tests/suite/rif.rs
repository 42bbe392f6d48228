//! The RIF's opening rules in the terminal game: a person puts, swaps,
//! declares, offers and picks as each step asks; an engine does its part;
//! the colours settle and the record keeps every step.

use board::{Cell, Rules, Side};
use play::opening_rules::rif::{OpeningAsk, central_square, first_player_colour, symmetric};
use play::{OpeningRule, SwapStep};
use ratatui::crossterm::event::KeyCode;
use tui::{App, Player};

use crate::common::{press, screen, setup, tick_until, type_text};

fn rif_game(x: &str, o: &str, rule: OpeningRule) -> App {
    App::new(tui::Setup { opening: rule, ..setup(Rules::renju(), x, o) })
}

fn name(app: &App, cell: Cell) -> String {
    cell.name(&app.setup().rules).to_string()
}

/// The first legal cell of `cells`, nearest the top left.
fn free_in(app: &App, cells: impl IntoIterator<Item = Cell>) -> Cell {
    cells.into_iter().find(|&cell| app.pos().is_legal(cell)).expect("a free cell")
}

/// A person's answer to whatever is asked, by keys: swaps taken every
/// other time, fifth stones offered (the way that asks the most).
fn answer_as_a_person(app: &mut App, swaps: &mut usize) {
    let rules = app.setup().rules;
    match app.opening_ask().expect("a step asked") {
        OpeningAsk::StandardOpening => {
            for cell in ["h8", "h9", "j10"] {
                type_text(app, cell);
            }
        }
        OpeningAsk::Put { radius } => {
            let cell = free_in(app, central_square(&rules, radius));
            type_text(app, &name(app, cell));
        }
        OpeningAsk::MaySwap { .. } => {
            *swaps += 1;
            press(app, KeyCode::Char(if *swaps % 2 == 1 { 'X' } else { 'K' }));
        }
        OpeningAsk::FourthAndCount { .. } => {
            let cell = free_in(app, central_square(&rules, 3));
            type_text(app, &name(app, cell));
            type_text(app, "3");
        }
        OpeningAsk::OfferOrPut { .. } => press(app, KeyCode::Char('F')),
        OpeningAsk::Offer { count } => {
            let mut chosen: Vec<Cell> = Vec::new();
            for cell in central_square(&rules, 5) {
                if chosen.len() == usize::from(count) {
                    break;
                }
                if app.pos().is_legal(cell) && !chosen.iter().any(|&other| symmetric(app.pos(), other, cell))
                {
                    chosen.push(cell);
                    type_text(app, &name(app, cell));
                }
            }
        }
        OpeningAsk::Pick { offered } => {
            type_text(app, &name(app, offered[0]));
            let sixth = free_in(app, central_square(&rules, 6));
            type_text(app, &name(app, sixth));
        }
    }
}

/// The panel names the players by the colours they hold now, and marks
/// the one who must act with ▶, its colour "to act".
fn check_panel(app: &mut App) {
    let Some(side) = app.side_to_act() else { return };
    let text = screen(app, 120, 40);
    let mark = side.mark().to_ascii_uppercase();
    let acting = text.lines().find(|line| line.contains("▶ ")).expect("a player marked");
    let who = if app.human_to_move() {
        "you".to_owned()
    } else {
        app.setup().players[app.seat_holding(side)].text()
    };
    assert!(acting.contains(&format!("▶ {mark}: {who}")), "{acting:?}, {}", app.message());
    assert!(text.contains(&format!("{mark} to act in the")), "{text}");
}

/// The panel shows no engine's best move while the opening is decided,
/// nor just after it: an opening step's searches are of positions tried
/// off the board (a fifth stone the engine did not offer, say).
fn check_no_stray_best(app: &mut App) {
    let text = screen(app, 120, 40);
    assert!(!text.lines().any(|line| line.contains("best ") && line.contains(" value ")), "{text}");
}

/// Plays the opening to its end, a person answering where it is asked.
fn play_opening(app: &mut App) {
    let mut swaps = 0;
    for _ in 0..40 {
        check_no_stray_best(app);
        if app.swap_phase().is_none() {
            return;
        }
        check_panel(app);
        if app.human_to_move() {
            answer_as_a_person(app, &mut swaps);
        } else {
            let before = app.opening_ask();
            tick_until(app, "the engine's step", |app| {
                app.opening_ask() != before || app.swap_phase().is_none()
            });
        }
    }
    panic!("the opening never ended: {}", app.message());
}

fn check_record(app: &App, rule: OpeningRule) {
    let record = app.settled_opening().expect("settled").clone();
    assert_eq!(record.rule, rule);
    assert_eq!(first_player_colour(app.pos().rules(), &record, None), Ok(record.opener), "{record:?}");
    // White's sixth move follows a pick; the game goes on from it.
    if record.steps.iter().any(|step| matches!(step, SwapStep::Picked(_))) {
        assert_eq!(app.pos().ply(), 6, "{}", app.message());
    }
}

#[test]
fn two_people_play_every_soosorv_step_with_its_checks() {
    let mut app = rif_game("human", "human", OpeningRule::Soosorv8);
    assert!(app.message().contains("put a standard opening"), "{}", app.message());
    // The second stone must lie within the central 3x3.
    type_text(&mut app, "h8");
    type_text(&mut app, "l12");
    assert!(app.message().contains("within the central 3x3"), "{}", app.message());
    type_text(&mut app, "i9");
    type_text(&mut app, "j10");
    assert_eq!(app.pos().ply(), 3);
    assert!(app.message().contains("X swaps colours, K keeps them"), "{}", app.message());
    press(&mut app, KeyCode::Char('X'));
    // The fourth stone, then a count out of range, then one in it.
    type_text(&mut app, "g6");
    assert!(app.message().contains("how many fifth stones"), "{}", app.message());
    type_text(&mut app, "9");
    assert!(app.message().contains("1 to 8"), "{}", app.message());
    type_text(&mut app, "2");
    assert_eq!(app.pos().ply(), 4);
    press(&mut app, KeyCode::Char('K'));
    // Two fifth stones: a twin by the position's symmetry is refused, an
    // offered stone given again is taken back, and the offer shows.
    assert!(matches!(app.opening_ask(), Some(OpeningAsk::Offer { count: 2 })));
    type_text(&mut app, "k12");
    assert!(screen(&mut app, 100, 30).contains('5'));
    type_text(&mut app, "k12");
    assert!(app.message().contains("offered no more"), "{}", app.message());
    type_text(&mut app, "k12");
    type_text(&mut app, "c3");
    let Some(OpeningAsk::Pick { offered }) = app.opening_ask() else { panic!("{}", app.message()) };
    assert_eq!(offered.len(), 2);
    // Picking a stone not offered is refused; then a pick and the sixth.
    type_text(&mut app, "a1");
    assert!(app.message().contains("not one of the fifth stones offered"), "{}", app.message());
    type_text(&mut app, "c3");
    type_text(&mut app, "g9");
    assert!(app.swap_phase().is_none(), "{}", app.message());
    check_record(&app, OpeningRule::Soosorv8);
    let record = app.settled_opening().unwrap();
    // One swap: the second player holds black.
    assert_eq!(record.opener, Side::O);
    assert_eq!(app.pos().get(board::Rules::renju().parse_cell("g9").unwrap()), Some(Side::O));
    assert!(
        app.message().contains("picks c3") && app.message().contains("white plays g9"),
        "{}",
        app.message()
    );
}

#[test]
fn a_person_and_an_engine_play_each_rule_to_the_game() {
    for rule in [OpeningRule::Soosorv8, OpeningRule::Taraguchi10] {
        for (x, o) in [("human", "alphabeta"), ("alphabeta", "human")] {
            let mut app = rif_game(x, o, rule);
            play_opening(&mut app);
            check_record(&app, rule);
            // The person and the engine hold one colour each.
            let humans = app.setup().players.iter().filter(|p| matches!(p, Player::Human)).count();
            assert_eq!(humans, 1);
        }
    }
}
