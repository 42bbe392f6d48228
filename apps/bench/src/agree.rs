//! `bench agree`: how often an engine plays a reference move — a cheap
//! measure beside games. A positions file holds one middle-game position
//! a line, as its moves from the empty board, then `=` and the reference
//! move (`h8 i9 g7 j10 = k11 # …`); its header says where the reference
//! moves came from. `bench agree --make RECORDS…` writes such a file:
//! positions drawn from the games of some runs, each answered by a
//! reference engine searching `--ms` (a strong one, searching long).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use board::{Cell, Position, Rules};
use play::Limits;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use roster::AgentSpec;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The positions file to measure against; with --make, the records
    /// files (`bench match --records`) to draw positions from.
    #[arg(required = true, num_args = 1..)]
    files: Vec<PathBuf>,
    /// Write a positions file from the records instead: positions drawn
    /// from their games, each with `--engine`'s move after `--ms`.
    #[arg(long)]
    make: bool,
    /// The engine measured (or, with --make, the one that gives the
    /// reference moves).
    #[arg(long)]
    engine: AgentSpec,
    /// Thinking time a position in milliseconds.
    #[arg(long)]
    ms: Option<u64>,
    /// Nodes (or iterations) a position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// With --make: how many positions to draw.
    #[arg(long, default_value_t = 200, requires = "make")]
    count: usize,
    /// With --make: the fewest stones a drawn position holds.
    #[arg(long, default_value_t = 8, requires = "make")]
    from_ply: usize,
    /// With --make: positions this close to a game's end are left out
    /// (the last plies are most often forced).
    #[arg(long, default_value_t = 6, requires = "make")]
    before_end: usize,
    /// With --make: the seed of the draw.
    #[arg(long, default_value_t = 0, requires = "make")]
    seed: u64,
}

/// A position and the move the reference played in it.
#[derive(Clone, Debug)]
pub(crate) struct Question {
    pub(crate) pos: Position,
    pub(crate) reference: Cell,
}

pub fn run(args: &Args) -> Result<()> {
    if args.ms.is_none() && args.nodes.is_none() {
        bail!("give the search's budget: --ms or --nodes");
    }
    crate::report::check_threads(args.threads)?;
    if args.make && args.count == 0 {
        bail!("--count must be at least 1: a file of no positions measures nothing");
    }
    if args.make { make(args) } else { measure(args) }
}

fn limits(args: &Args) -> Limits {
    Limits { time: args.ms.map(Duration::from_millis), nodes: args.nodes, ..Limits::none() }
}

/// Each position's move by `engine`, in order, searched `threads` at a time.
fn moves_of(args: &Args, rules: Rules, positions: &[&Position]) -> Result<Vec<Cell>> {
    args.engine.check_rules(&rules)?;
    let limits = limits(args);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    pool.install(|| {
        positions
            .par_iter()
            .enumerate()
            .map(|(i, pos)| {
                let mut agent = args.engine.build(i as u64);
                agent.new_game(&rules);
                agent.select_move(pos, &limits).map_err(|err| anyhow::anyhow!("position {}: {err}", i + 1))
            })
            .collect()
    })
}

/// Reads a positions file: its rules from a `# rules W,H,K…` line (the
/// freestyle 15×15 board if none), then one question a line.
pub(crate) fn read_questions(path: &Path) -> Result<(Rules, Vec<Question>)> {
    let text =
        play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut rules: Rules = "15,15,5".parse().expect("a preset");
    let mut questions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let at = || format!("{} line {}", path.display(), number + 1);
        if let Some(given) = line.trim().strip_prefix("# rules ") {
            rules = given.trim().parse().with_context(at)?;
            continue;
        }
        let body = line.split('#').next().unwrap_or_default().trim();
        if body.is_empty() {
            continue;
        }
        let Some((moves, reference)) = body.split_once('=') else {
            bail!("{}: expected `MOVES = MOVE`, such as `h8 i9 g7 = j10`", at());
        };
        let moves = moves.trim();
        let pos = Position::from_moves(rules, moves).with_context(at)?;
        if pos.is_over() {
            bail!("{}: the game is over after {moves}", at());
        }
        let reference = rules.parse_cell(reference.trim()).with_context(at)?;
        if !pos.is_legal(reference) {
            bail!("{}: the reference move {} is not legal there", at(), reference.name(&rules));
        }
        questions.push(Question { pos, reference });
    }
    if questions.is_empty() {
        bail!("{} holds no positions", path.display());
    }
    Ok((rules, questions))
}

/// The share of positions where the engine plays the reference move.
fn measure(args: &Args) -> Result<()> {
    let [path] = &args.files[..] else { bail!("measure one positions file at a time") };
    let (rules, questions) = read_questions(path)?;
    let positions: Vec<&Position> = questions.iter().map(|q| &q.pos).collect();
    let moves = moves_of(args, rules, &positions)?;
    let agreed = questions.iter().zip(&moves).filter(|(q, played)| q.reference == **played).count();
    let n = questions.len() as f64;
    let share = agreed as f64 / n;
    let margin = 1.96 * (share * (1.0 - share) / n).sqrt();
    let budget = match (args.nodes, args.ms) {
        (Some(nodes), _) => format!("{nodes} nodes"),
        (None, Some(ms)) => format!("{ms} ms"),
        (None, None) => unreachable!("checked in run"),
    };
    println!(
        "{}: {agreed} of {} reference moves ({:.1}% ± {:.1}) at {budget} a position",
        args.engine,
        questions.len(),
        100.0 * share,
        100.0 * margin
    );
    Ok(())
}

/// Middle-game positions of the records' games: every position from
/// `from_ply` stones to `before_end` plies before the end, one of each
/// symmetry class, `count` drawn by `seed`.
fn draw_positions(args: &Args) -> Result<(Rules, Vec<Position>)> {
    let mut rules: Option<Rules> = None;
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    for path in &args.files {
        for line in arena::read_records(path).with_context(|| format!("cannot read {}", path.display()))? {
            let record = &line.record;
            if rules.is_some_and(|rules| rules != record.rules) {
                bail!(
                    "{} holds games of {}, others of {}",
                    path.display(),
                    record.rules,
                    rules.expect("set")
                );
            }
            rules = Some(record.rules);
            let cells: Vec<Cell> = record.cells().collect();
            let mut pos = Position::new(record.rules);
            for (ply, &cell) in cells.iter().enumerate() {
                if ply >= args.from_ply
                    && ply.saturating_add(args.before_end) < cells.len()
                    && seen.insert(pos.canonical().0)
                {
                    positions.push(pos.clone());
                }
                pos.play(cell)
                    .with_context(|| format!("{}: game {} is corrupt", path.display(), line.game))?;
            }
        }
    }
    let Some(rules) = rules else { bail!("the records hold no games") };
    if positions.len() < args.count {
        bail!("the records hold {} positions that fit, fewer than --count {}", positions.len(), args.count);
    }
    positions.shuffle(&mut SmallRng::seed_from_u64(args.seed));
    positions.truncate(args.count);
    Ok((rules, positions))
}

/// The one-line move list of a position (its moves from the empty board).
fn moves_text(pos: &Position) -> String {
    pos.moves().iter().map(|cell| cell.name(pos.rules()).to_string()).collect::<Vec<_>>().join(" ")
}

fn make(args: &Args) -> Result<()> {
    let (rules, positions) = draw_positions(args)?;
    let refs: Vec<&Position> = positions.iter().collect();
    let moves = moves_of(args, rules, &refs)?;
    let budget =
        args.ms.map_or_else(|| format!("{} nodes", args.nodes.unwrap_or(0)), |ms| format!("{ms} ms"));
    let sources: Vec<String> = args
        .files
        .iter()
        .map(|path| {
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    println!("# Middle-game positions, each with a reference move: `MOVES = MOVE`.");
    println!(
        "# Drawn from the games of {} (seed {}, from ply {}, not within {} plies of the end);",
        sources.join(", "),
        args.seed,
        args.from_ply,
        args.before_end
    );
    println!("# reference moves by {} searching {budget} a position.", args.engine);
    println!("# rules {rules}");
    for (pos, cell) in positions.iter().zip(moves) {
        println!("{} = {}", moves_text(pos), cell.name(&rules));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mnk-agree-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn questions_read_with_their_rules_and_bad_lines_say_why() {
        let path =
            write("good.txt", "# from somewhere\n# rules 15,15,5\nh8 i9 g7 = j10 # value 3\n\nh8 = h9\n");
        let (rules, questions) = read_questions(&path).unwrap();
        assert_eq!(rules.to_string(), "15,15,5");
        assert_eq!(questions.len(), 2);
        assert_eq!(questions[0].reference.name(&rules).to_string(), "j10");
        assert_eq!(questions[1].pos.ply(), 1);
        for (text, says) in [
            ("h8 i9\n", "expected `MOVES = MOVE`"),
            ("h8 i9 = h8\n", "not legal"),
            ("h8 i9 = z99\n", ""),
            ("# nothing\n", "holds no positions"),
        ] {
            let error = format!("{:#}", read_questions(&write("bad.txt", text)).unwrap_err());
            assert!(error.contains(says), "{text:?}: {error}");
        }
    }

    #[test]
    fn a_made_file_reads_back_and_a_deterministic_engine_agrees_with_itself() {
        // A short run of two deterministic engines gives the records.
        let records = write("games.jsonl", "");
        std::fs::remove_file(&records).unwrap();
        let spec: AgentSpec = "pattern".parse().unwrap();
        let rules: Rules = "9,9,5".parse().unwrap();
        let entrant = |spec: &AgentSpec| {
            let spec = spec.clone();
            arena::Entrant::new(spec.text().to_owned(), move |seed| spec.build(seed))
        };
        let plan = arena::Plan {
            openings: arena::Openings::from_arg("random:2", rules).unwrap(),
            ..arena::Plan::new(
                rules,
                vec![entrant(&spec), entrant(&"pattern:family=ternary".parse().unwrap())],
                4,
            )
        };
        let options = arena::RunOptions { records: Some(&records), ..arena::RunOptions::default() };
        arena::run(&plan, options).unwrap();
        let args = Args {
            files: vec![records],
            make: true,
            engine: spec,
            ms: None,
            nodes: Some(1),
            threads: 1,
            count: 5,
            from_ply: 4,
            before_end: 2,
            seed: 3,
        };
        let (rules, positions) = draw_positions(&args).unwrap();
        assert_eq!(positions.len(), 5);
        let refs: Vec<&Position> = positions.iter().collect();
        let moves = moves_of(&args, rules, &refs).unwrap();
        let text: String = std::iter::once(format!("# rules {rules}\n"))
            .chain(
                positions
                    .iter()
                    .zip(&moves)
                    .map(|(p, m)| format!("{} = {}\n", moves_text(p), m.name(&rules))),
            )
            .collect();
        let (read_rules, questions) = read_questions(&write("made.txt", &text)).unwrap();
        assert_eq!(read_rules, rules);
        let again = moves_of(&args, rules, &questions.iter().map(|q| &q.pos).collect::<Vec<_>>()).unwrap();
        assert!(
            questions.iter().zip(again).all(|(q, m)| q.reference == m),
            "a greedy player answers the same"
        );
    }
}
