//! Cross-crate tests: every engine in the roster plays whole games through
//! `play::play_game` on the boards `tests/suite/arena.rs` does not cover (15×15,
//! an exact-k board, 1×1), and every record holds up.

use board::{RuleSet, Rules};
use play::{GameRecord, Limits, play_game};
use roster::{AgentSpec, ENGINES};

/// Boards beyond the 3×3 and 8×8 that `tests/suite/arena.rs` plays.
fn boards() -> Vec<Rules> {
    vec![
        Rules::gomoku15(),
        Rules::new(7, 4, 4, RuleSet::Exact).expect("valid rules"),
        Rules::new(1, 1, 1, RuleSet::Freestyle).expect("valid rules"),
    ]
}

/// The record holds up; a forfeit happens only to an engine that says it
/// cannot play these rules, and then with its reason.
fn check(record: &GameRecord, specs: [&AgentSpec; 2]) {
    let unsupported: Vec<String> =
        specs.iter().filter_map(|spec| spec.check_rules(&record.rules).err()).map(|err| err.reason).collect();
    if let Some(forfeit) = &record.forfeit {
        assert!(unsupported.iter().any(|reason| forfeit.reason.contains(reason.as_str())), "{record:?}");
        return;
    }
    let end = record.replay().expect("every recorded move is legal");
    assert_eq!(end.outcome(), Some(record.outcome));
    let json = serde_json::to_string(record).expect("records serialise");
    let back: GameRecord = serde_json::from_str(&json).expect("records deserialise");
    assert_eq!(&back, record);
}

#[test]
fn every_engine_plays_every_other_on_every_board() {
    // Every engine that plays without options (all but `external`, which needs a brain).
    let specs: Vec<AgentSpec> = ENGINES.iter().filter_map(|e| e.name.parse().ok()).collect();
    assert_eq!(specs.len(), ENGINES.len() - 1);
    // Small budgets: this checks that games are played by the rules, not how well.
    let limits = Limits { nodes: Some(300), depth: Some(1), ..Limits::none() };
    for rules in boards() {
        for x in &specs {
            for o in &specs {
                for seed in 0..3 {
                    let (mut a, mut b) = (x.build(seed), o.build(seed + 1000));
                    let record = play_game(rules, [&mut *a, &mut *b], &[], &limits).expect("no opening");
                    check(&record, [x, o]);
                }
            }
        }
    }
}

#[test]
fn games_repeat_for_the_same_seeds() {
    let spec: AgentSpec = "random:seed=3".parse().expect("valid spec");
    let play = |seed| {
        let (mut x, mut o) = (spec.build(seed), spec.build(seed + 1));
        play_game(Rules::gomoku15(), [&mut *x, &mut *o], &[], &Limits::none()).expect("no opening")
    };
    let cells = |record: &GameRecord| record.cells().collect::<Vec<_>>();
    assert_eq!(cells(&play(1)), cells(&play(1)));
    assert_ne!(cells(&play(1)), cells(&play(2)));
}

/// Search engines wired to pattern evaluation through the roster play
/// well: they beat `random` with either colour.
#[test]
fn alpha_beta_with_pattern_evaluation_beats_random() {
    let rules = Rules::five_8x8();
    let limits = Limits::depth(2);
    let random: AgentSpec = "random".parse().expect("valid spec");
    for text in ["alphabeta:eval=ternary", "alphabeta:eval=pattern", "alphabeta:eval=openlines"] {
        let engine: AgentSpec = text.parse().expect("valid spec");
        for seed in 0..10 {
            for engine_is_x in [true, false] {
                let (mut a, mut b) = (engine.build(seed), random.build(seed));
                let agents: [&mut dyn play::Agent; 2] =
                    if engine_is_x { [&mut *a, &mut *b] } else { [&mut *b, &mut *a] };
                let record = play_game(rules, agents, &[], &limits).expect("no opening");
                let engine_side = if engine_is_x { board::Side::X } else { board::Side::O };
                assert_eq!(
                    record.outcome,
                    board::Outcome::Win(engine_side),
                    "{text} seed {seed}: {record:?}"
                );
            }
        }
    }
}

#[test]
fn a_forced_block_is_valued_after_it_as_every_evaluation_sees_it() {
    // O must block X's four at l8; X keeps an open three (c3 d4 e5): O is
    // losing, and the block's value says so (it was the value before the
    // block, with X's five to make counted as if O were free to move).
    let pos = board::Position::from_moves(Rules::gomoku15(), "c3 a15 d4 c15 e5 e15 h8 g8 i8 g15 j8 i15 k8")
        .unwrap();
    for spec in ["alphabeta", "alphabeta:eval=threat", "alphabeta:eval=openlines"] {
        let mut agent = AgentSpec::parse(spec).unwrap().build(0);
        agent.new_game(pos.rules());
        let cell = agent.select_move(&pos, &Limits::nodes(10_000)).unwrap();
        assert_eq!(cell.name(pos.rules()).to_string(), "l8", "{spec}");
        let analysis = agent.analysis().unwrap();
        assert!(
            analysis.win_in.is_some_and(|plies| plies < 0) || analysis.value.is_some_and(|v| v < 0.0),
            "{spec}: {analysis:?}"
        );
    }
}

/// Random moves near the centre (a seeded generator) until the side to
/// move faces one five it can block, under renju or freestyle.
fn facing_a_four(seed: u64) -> Option<(board::Position, board::Cell)> {
    let next =
        |state: u64| state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    let mut state = next(seed);
    let rules = if seed.is_multiple_of(2) { Rules::renju() } else { Rules::gomoku15() };
    let mut pos = board::Position::new(rules);
    while !pos.is_over() {
        let threats = board::threats::Threats::new(&pos).ok()?;
        let mover = pos.side_to_move();
        if !(threats.five_cells(mover) & pos.legal_cells()).is_empty() {
            return None;
        }
        let theirs = threats.five_cells(mover.opponent()) & pos.legal_cells();
        if theirs.count() == 1 {
            return theirs.iter().next().map(|block| (pos, block));
        }
        let near: Vec<_> = pos
            .legal_cells()
            .iter()
            .filter(|cell| (i32::from(cell.x()) - 7).abs() <= 4 && (i32::from(cell.y()) - 7).abs() <= 4)
            .collect();
        if near.is_empty() {
            return None;
        }
        state = next(state);
        pos.play(near[(state >> 33) as usize % near.len()]).ok()?;
    }
    None
}

#[test]
fn a_four_of_the_opponent_is_answered_first() {
    // Also when the block loses anyway: its own four only loses sooner.
    let mut tried = 0;
    for seed in 0..200 {
        let Some((pos, block)) = facing_a_four(seed) else { continue };
        tried += 1;
        let mut agent = AgentSpec::parse("alphabeta").unwrap().build(seed);
        agent.new_game(pos.rules());
        let cell = agent.select_move(&pos, &Limits::nodes(3_000)).unwrap();
        assert_eq!(cell, block, "{} {}", pos.rules(), pos.to_one_line());
    }
    assert!(tried > 100, "{tried}");
}
