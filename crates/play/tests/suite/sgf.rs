//! SGF against the outside world: games written by the c-gomoku-cli
//! manager read back as played, and our own collections read by an
//! independent parser (`sgf-parse`, whose generic game type reads GM[4]).

use board::{Outcome, Rules, Side};
use play::sgf::{self, SgfGame};
use play::{Agent, GameRecord, Limits, RandomAgent, play_game};
use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, SgfNode};

/// 16 games of a match between two engines, as c-gomoku-cli saved them.
const C_GOMOKU_CLI: &str = include_str!("../data/c-gomoku-cli.sgf");

#[test]
fn every_game_c_gomoku_cli_wrote_reads_and_ends_as_its_result_says() {
    let games = sgf::parse(C_GOMOKU_CLI).unwrap();
    assert_eq!(games.len(), 16);
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.rules, Rules::gomoku15(), "game {}", i + 1);
        assert_eq!(game.moves[0].1.as_deref(), Some("opening move"));
        let pos = game.position(None).unwrap();
        let winner = match game.result.as_deref() {
            Some(result) if result.starts_with("B+") => Side::X,
            Some(result) if result.starts_with("W+") => Side::O,
            other => panic!("game {}: result {other:?}", i + 1),
        };
        assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "game {}", i + 1);
        let names = [game.players[0].as_deref(), game.players[1].as_deref()];
        assert!(names.contains(&Some("mnk-alphabeta")) && names.contains(&Some("openspiel-mcts")));
    }
}

/// Random games on `rules`, as a match would record them.
fn records(rules: Rules, games: u64) -> Vec<GameRecord> {
    (0..games)
        .map(|seed| {
            let (mut x, mut o) = (RandomAgent::new(seed), RandomAgent::new(seed + 100));
            let agents: [&mut dyn Agent; 2] = [&mut x, &mut o];
            play_game(rules, agents, &[], &Limits::none()).unwrap()
        })
        .collect()
}

fn text(prop: Option<&Prop>) -> Option<String> {
    match prop? {
        Prop::PB(name) | Prop::PW(name) | Prop::RE(name) => Some(name.text.clone()),
        Prop::B(point) | Prop::W(point) => Some(point.clone()),
        _ => None,
    }
}

#[test]
fn an_independent_parser_reads_our_collections_move_for_move() {
    for rules in [Rules::gomoku15(), Rules::new(9, 7, 4, board::RuleSet::Exact).unwrap()] {
        let records = records(rules, 6);
        let games: Vec<SgfGame> = records.iter().map(SgfGame::of_record).collect();
        let text_of_all = sgf::collection(&games);
        let trees = sgf_parse::parse(&text_of_all).unwrap();
        assert_eq!(trees.len(), records.len());
        for ((tree, record), game) in trees.iter().zip(&records).zip(&games) {
            let GameTree::Unknown(root) = tree else { panic!("read as another game than gomoku") };
            let root: &SgfNode<Prop> = root;
            assert_eq!(text(root.get_property("PB")), Some(record.players[0].clone()));
            assert_eq!(text(root.get_property("RE")), game.result);
            let moves: Vec<(String, String)> = root
                .main_variation()
                .filter_map(|node| {
                    let mover = node.get_move()?;
                    let colour = if matches!(mover, Prop::B(_)) { "B" } else { "W" };
                    Some((colour.to_owned(), text(Some(mover))?))
                })
                .collect();
            assert_eq!(moves.len(), record.moves.len());
            for (i, ((colour, point), cell)) in moves.iter().zip(record.cells()).enumerate() {
                assert_eq!(colour, if i % 2 == 0 { "B" } else { "W" });
                let (x, y) = (point.as_bytes()[0] - b'a', point.as_bytes()[1] - b'a');
                assert_eq!((x, y), (cell.x(), cell.y()), "move {}", i + 1);
            }
            // And ours reads it back as it was.
            assert_eq!(sgf::parse(&game.to_sgf()).unwrap(), vec![game.clone()]);
        }
    }
}
