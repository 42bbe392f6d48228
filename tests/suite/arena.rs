//! Cross-crate tests through the arena: every engine of the roster against
//! `random` and each other, with small budgets, and the engines that play
//! tic-tac-toe perfectly never losing a game.

use std::fs;
use std::path::PathBuf;

use arena::{Entrant, Format, Openings, Plan, RunOptions, Summary, read_records, run};
use board::Rules;
use play::Limits;
use roster::{AgentSpec, ENGINES};

fn entrant(spec: &AgentSpec) -> Entrant {
    let spec = spec.clone();
    Entrant::new(spec.text().to_owned(), move |seed| spec.build(seed))
}

fn records_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("mnk-root-{}-{name}.jsonl", std::process::id()));
    let _ = fs::remove_file(&path);
    path
}

/// Plays `plan` with records and checks them: one line per scheduled
/// game, every move legal, the recorded result the board's, no forfeit.
fn play_and_check(plan: &Plan, name: &str) -> Summary {
    let path = records_file(name);
    let summary =
        run(plan, RunOptions { records: Some(&path), ..RunOptions::default() }).expect("the run completes");
    let lines = read_records(&path).expect("records read back");
    assert_eq!(lines.len() as u64, summary.games_planned, "{name}: a record per game");
    assert_eq!(summary.games_counted, summary.games_planned);
    for line in &lines {
        assert!(
            line.record.forfeit.is_none(),
            "{name}: {:?} in game {} ({:?})",
            line.record.forfeit,
            line.game,
            line.specs
        );
        let end = line.record.replay().expect("every recorded move is legal");
        assert_eq!(end.outcome(), Some(line.record.outcome), "{name}: game {}", line.game);
        assert_eq!(line.record.players.len(), 2);
        assert!(!line.record.moves.is_empty());
    }
    let _ = fs::remove_file(path);
    summary
}

/// Every engine that can play `rules` by its bare name (all but
/// `external`, which needs a brain: `apps/pbrain`'s tests play it).
fn engines_for(rules: Rules) -> Vec<AgentSpec> {
    ENGINES
        .iter()
        .filter_map(|engine| engine.name.parse::<AgentSpec>().ok())
        .filter(|spec| spec.check_rules(&rules).is_ok())
        .collect()
}

#[test]
fn every_engine_meets_every_other_on_tic_tac_toe_and_8x8() {
    for (rules, plies) in [(Rules::tic_tac_toe(), 1), (Rules::five_8x8(), 2)] {
        let specs = engines_for(rules);
        assert!(specs.iter().any(|spec| spec.text() == "random"));
        let plan = Plan {
            format: Format::RoundRobin,
            openings: Openings::Random { plies },
            // Small budgets: this checks that games are played by the rules, not how well.
            limits: Limits { nodes: Some(300), depth: Some(1), ..Limits::none() },
            seed: 1,
            threads: 2,
            ..Plan::new(rules, specs.iter().map(entrant).collect(), 4)
        };
        let summary = play_and_check(&plan, &format!("round-robin-{}", rules.width()));
        let n = specs.len();
        assert_eq!(summary.pairings.len(), n * (n - 1) / 2);
    }
}

#[test]
fn perfect_players_never_lose_tic_tac_toe() {
    let rules = Rules::tic_tac_toe();
    let specs: Vec<AgentSpec> = ["random", "perfect", "tree", "alphabeta"]
        .iter()
        .map(|text| text.parse().expect("valid spec"))
        .collect();
    let plan = Plan {
        format: Format::Gauntlet,
        seed: 7,
        threads: 2,
        ..Plan::new(rules, specs.iter().map(entrant).collect(), 60)
    };
    let summary = play_and_check(&plan, "never-lose");
    for pairing in &summary.pairings {
        assert_eq!(pairing.results.wins, 0, "{} lost to random: {summary}", summary.entrants[pairing.b]);
    }
    // And among themselves every game is a draw.
    let plan = Plan {
        format: Format::RoundRobin,
        entrants: specs[1..].iter().map(entrant).collect(),
        games: 10,
        ..plan
    };
    let summary = play_and_check(&plan, "perfect-draws");
    for pairing in &summary.pairings {
        assert_eq!(pairing.results.draws, 10, "{summary}");
    }
}

#[test]
fn mcts_with_the_solver_never_loses_to_perfect_play() {
    let rules = Rules::tic_tac_toe();
    let specs: Vec<AgentSpec> = ["mcts:solver=true,iterations=2000", "perfect"]
        .iter()
        .map(|text| text.parse().expect("valid spec"))
        .collect();
    let plan = Plan { seed: 3, threads: 2, ..Plan::new(rules, specs.iter().map(entrant).collect(), 100) };
    let summary = play_and_check(&plan, "solver-vs-perfect");
    assert_eq!(summary.pairings[0].results.losses, 0, "{summary}");
}

#[test]
fn every_mcts_option_plays_by_the_rules() {
    let rules = Rules::five_8x8();
    let texts = [
        "random",
        "mcts:solver=true",
        "mcts:threads=2",
        "mcts:threads=2,parallel=shared",
        "mcts:prior=pattern",
        "mcts:prior=openlines,solver=true",
        "mcts:reuse=true,playout=heuristic",
        "mcts:playout=ranked",
        "mcts:value=codes",
        "mcts:value=net,prior=pattern",
    ];
    let specs: Vec<AgentSpec> = texts.iter().map(|text| text.parse().expect("valid spec")).collect();
    let plan = Plan {
        format: Format::Gauntlet,
        openings: Openings::Random { plies: 2 },
        limits: Limits { nodes: Some(400), ..Limits::none() },
        seed: 4,
        threads: 2,
        ..Plan::new(rules, specs.iter().map(entrant).collect(), 4)
    };
    let summary = play_and_check(&plan, "mcts-options");
    for pairing in &summary.pairings {
        // Random (A) against each variant: the variants win every game.
        assert_eq!(pairing.results.wins + pairing.results.draws, 0, "{summary}");
    }
}
