//! Monte-Carlo tree search as a player: root rules, one tree or several
//! in parallel, and the analysis it reports.

use std::sync::atomic::AtomicU64;

use board::{Cell, Position, mix_seed};
use play::{Agent, AgentError, Analysis, Limits, ScoreKind};
use rayon::prelude::*;

use crate::config::MctsConfig;
use crate::search::{Mcts, MctsReport};

/// The centre of the empty board, a win now, else the block of the
/// opponent's only win now.
fn forced_move(pos: &Position) -> Option<Cell> {
    // The empty board: the centre, as the tree finds with time enough
    // (with little, on a loaded machine, it opened at the edge).
    if pos.ply() == 0 {
        let rules = pos.rules();
        return Some(Cell::new(rules.width() / 2, rules.height() / 2));
    }
    let mover = pos.side_to_move();
    let empty = pos.empty_cells();
    if let Some(win) = empty.iter().find(|&cell| pos.wins_at(cell, mover)) {
        return Some(win);
    }
    let mut threats = empty.iter().filter(|&cell| pos.wins_at(cell, mover.opponent()));
    match (threats.next(), threats.next()) {
        // Under renju black's block may be forbidden: the search decides.
        (Some(block), None) if pos.is_legal(block) => Some(block),
        _ => None,
    }
}

/// Monte-Carlo tree search as a player: one tree, or with
/// `threads > 1` that many trees searched in parallel (root
/// parallelism), their root statistics added up — or, with `shared`, one
/// tree searched by that many threads with virtual loss.
#[derive(Debug)]
pub struct MctsAgent {
    searches: Vec<Tree>,
    seed: u64,
    games: u64,
    analysis: Option<Analysis>,
}

impl MctsAgent {
    /// A player searching with `config`, its random choices seeded by `seed`.
    #[must_use]
    pub fn new(config: MctsConfig, seed: u64) -> MctsAgent {
        // A shared tree is one tree, whatever the thread count.
        let threads = if config.shared { 1 } else { config.threads.max(1) };
        let mut searches: Vec<Tree> =
            (1..threads).map(|t| Tree(Mcts::new(config.clone(), tree_seed(seed, t)))).collect();
        searches.insert(0, Tree(Mcts::new(config, seed)));
        MctsAgent { searches, seed, games: 0, analysis: None }
    }

    /// Searches `pos` (not over) with every tree, the trees taking
    /// iterations from one count, and adds up their root children: the search behind
    /// [`Agent::select_move`], without the root rules.
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> MctsReport {
        let config = self.searches[0].0.config();
        let limits = &budget(config, limits);
        if config.shared && config.threads > 1 {
            let threads = config.threads;
            return self.searches[0].0.search_shared(pos, limits, threads);
        }
        if self.searches.len() == 1 {
            return self.searches[0].0.search(pos, limits);
        }
        // The trees draw on one count of iterations, so that all end
        // together however fast each one's core runs.
        let left = AtomicU64::new(limits.nodes.unwrap_or(self.searches[0].0.config().iterations).max(1));
        let reports: Vec<MctsReport> = self
            .searches
            .par_iter_mut()
            .enumerate()
            // The first tree's view is the one shown while they search.
            .map(|(t, tree)| tree.0.search_share(pos, limits, &left, t == 0))
            .collect();
        merge(&reports)
    }
}

/// The limits a search runs within: the game's clock unless the engine
/// ignores it (the classic `uct`), capped by its own time a move; then,
/// with no node limit, the time alone is the budget where the
/// configuration says so (no iterations were asked for), else its
/// iterations are.
fn budget(config: &MctsConfig, limits: &Limits) -> Limits {
    let mut limits = limits.clone();
    if !config.follows_clock {
        limits.time = None;
        limits.max_time = None;
    }
    let mut limits = limits.capped(config.move_time);
    if limits.nodes.is_none() {
        let timed = limits.time.is_some() && config.time_is_budget;
        limits.nodes = Some(if timed { u64::MAX } else { config.iterations });
    }
    limits
}

/// One tree of a parallel search, on cache lines of its own: each search
/// writes its generator and scratch lengths every iteration, and trees
/// side by side in one vector would make the cores fight over the lines
/// between them.
#[derive(Debug)]
#[repr(align(128))]
struct Tree(Mcts);

/// Tree t's seed: the first tree keeps the one-tree seed.
fn tree_seed(seed: u64, tree: usize) -> u64 {
    if tree == 0 { seed } else { mix_seed(seed, 0x7472_6565 + tree as u64) }
}

/// Root statistics of several trees as one: visits added, values weighted
/// by visits; a proof in any tree holds for all: its winning move is
/// played and worth 1, and in a lost root every move is worth 0.
fn merge(reports: &[MctsReport]) -> MctsReport {
    let mut children: Vec<(Cell, u32, f64)> = Vec::new();
    for report in reports {
        for &(cell, visits, mean) in &report.children {
            match children.iter_mut().find(|(c, _, _)| *c == cell) {
                Some((_, total, sum)) => {
                    *total += visits;
                    *sum += mean * f64::from(visits);
                }
                None => children.push((cell, visits, mean * f64::from(visits))),
            }
        }
    }
    for child in &mut children {
        child.2 /= f64::from(child.1.max(1));
    }
    let proven = reports.iter().find(|r| r.proven > 0);
    let best = match proven {
        Some(report) => report.best_move,
        // The most visited, the first on ties.
        None => children
            .iter()
            .copied()
            .reduce(|best, child| if child.1 > best.1 { child } else { best })
            .map(|(cell, _, _)| cell),
    };
    let lost = proven.is_none() && reports.iter().any(|r| r.proven < 0);
    for (cell, _, value) in &mut children {
        if lost {
            *value = 0.0;
        } else if proven.is_some() && Some(*cell) == best {
            *value = 1.0;
        }
    }
    let mut proofs: Vec<(Cell, i8)> = Vec::new();
    for &(cell, proof) in reports.iter().flat_map(|r| &r.proofs) {
        if !proofs.iter().any(|&(c, _)| c == cell) {
            proofs.push((cell, proof));
        }
    }
    let line = reports
        .iter()
        .find(|r| r.best_move == best)
        .map_or_else(|| best.into_iter().collect(), |r| r.line.clone());
    MctsReport {
        best_move: best,
        iterations: reports.iter().map(|r| r.iterations).sum(),
        nodes: reports.iter().map(|r| r.nodes).sum(),
        saturated: reports.iter().any(|r| r.saturated),
        root_visits: reports.iter().map(|r| r.root_visits).sum(),
        proven: if proven.is_some() { 1 } else { -i8::from(lost) },
        children,
        line,
        proofs,
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> String {
        "uct".to_owned()
    }

    fn new_game(&mut self, _rules: &board::Rules) {
        self.games += 1;
        let game_seed = mix_seed(self.seed, self.games);
        for (t, Tree(search)) in self.searches.iter_mut().enumerate() {
            search.reseed(tree_seed(game_seed, t));
        }
        self.analysis = None;
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        if self.searches[0].0.config().root_rules
            && let Some(cell) = forced_move(pos)
        {
            self.analysis = Some(Analysis::of_move(cell, ScoreKind::VisitShare).with_scores([(cell, 1.0)]));
            return Ok(cell);
        }
        let report = self.search(pos, limits);
        let cell = report.best_move.ok_or_else(|| AgentError::failed("no move searched"))?;
        self.analysis = Some(report.analysis());
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;
    use play::{Progress, StopFlag};
    use std::time::Duration;

    /// Searches the empty 9×9 board under `limits`, stopping it once
    /// `stop_after` iterations are reported: how many it searched.
    fn iterations(config: MctsConfig, limits: &Limits, stop_after: u64) -> u64 {
        let (flag, progress, finished) = (StopFlag::new(), Progress::new(), StopFlag::new());
        let limits = Limits { stop: Some(flag.clone()), progress: Some(progress.clone()), ..limits.clone() };
        let watching = finished.clone();
        let watcher = std::thread::spawn(move || {
            while progress.read().0 < stop_after && !watching.is_set() {
                std::thread::sleep(Duration::from_millis(1));
            }
            flag.stop();
        });
        let pos = Position::new(Rules::new(9, 9, 5, board::RuleSet::Freestyle).unwrap());
        let done = MctsAgent::new(config, 1).search(&pos, &limits).iterations;
        finished.stop();
        watcher.join().unwrap();
        done
    }

    #[test]
    fn a_time_limit_is_the_budget_unless_iterations_are_asked_for() {
        let hour = Limits::time(Duration::from_hours(1));
        // With the game's clock and no iterations asked for: it searches
        // past its default iterations until stopped.
        let free = iterations(MctsConfig::default(), &hour, 30_000);
        assert!(free >= 30_000, "{free}");
        // Iterations asked for: they are the budget, the clock a cap.
        let asked = MctsConfig { iterations: 500, time_is_budget: false, ..MctsConfig::default() };
        assert_eq!(iterations(asked.clone(), &hour, u64::MAX), 500);
        // No time limit: the default iterations.
        assert_eq!(iterations(MctsConfig::default(), &Limits::none(), u64::MAX), 10_000);
        // The classic ignores the game's clock: its 1,000 iterations…
        assert_eq!(iterations(MctsConfig::uct(), &hour, u64::MAX), 1_000);
        // …unless given its own time a move, which is then its budget.
        let timed = MctsConfig { move_time: Some(Duration::from_hours(1)), ..MctsConfig::uct() };
        let classic = iterations(timed, &Limits::none(), 5_000);
        assert!(classic >= 5_000, "{classic}");
        // A node limit always wins.
        assert_eq!(iterations(MctsConfig::default(), &Limits { nodes: Some(700), ..hour }, u64::MAX), 700);
    }

    #[test]
    fn a_watched_search_publishes_what_it_thinks_until_stopped() {
        let pos = Position::from_moves(Rules::gomoku15(), "h8 h9 i8").unwrap();
        let one = MctsConfig::default();
        let parallel = MctsConfig { threads: 2, ..MctsConfig::default() };
        let shared = MctsConfig { threads: 2, shared: true, ..MctsConfig::default() };
        for config in [one, parallel, shared] {
            let (flag, progress, finished) = (StopFlag::new(), Progress::new(), StopFlag::new());
            let limits =
                Limits::time(Duration::from_hours(1)).with_stop(flag.clone()).with_progress(progress.clone());
            // Stop once the first analysis is out.
            let (seen, done) = (progress.clone(), finished.clone());
            let watcher = std::thread::spawn(move || {
                while seen.published() == 0 && !done.is_set() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                flag.stop();
            });
            let mut agent = MctsAgent::new(config.clone(), 1);
            agent.select_move(&pos, &limits).unwrap();
            finished.stop();
            watcher.join().unwrap();
            let last = agent.analysis().unwrap();
            let published = progress.latest().expect("an analysis while searching");
            let cell = published.best_move.unwrap();
            assert!(pos.get(cell).is_none() && last.scores.iter().any(|s| s.cell == cell), "{config:?}");
            assert!(published.nodes > 0 && published.nodes <= last.nodes, "{config:?}");
            assert_eq!(published.line.first(), Some(&cell));
        }
    }

    /// A tree's report on two root moves, a and b, with their values.
    fn report(proven: i8, best: Cell, values: [f64; 2]) -> MctsReport {
        let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
        MctsReport {
            best_move: Some(best),
            iterations: 100,
            nodes: 10,
            saturated: false,
            children: vec![(a, 60, values[0]), (b, 40, values[1])],
            root_visits: 100,
            line: vec![best],
            proven,
            proofs: Vec::new(),
        }
    }

    #[test]
    fn a_proof_in_one_tree_holds_for_the_merged_trees() {
        let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
        // The second tree proved b won; the first still has it at 0.5.
        let merged = merge(&[report(0, a, [0.6, 0.5]), report(1, b, [0.3, 1.0])]);
        assert_eq!((merged.proven, merged.best_move), (1, Some(b)));
        assert_eq!(merged.children, [(a, 120, 0.45), (b, 80, 1.0)]);
        // The first tree proved the root lost: every move is worth 0.
        let merged = merge(&[report(-1, a, [0.0, 0.0]), report(0, a, [0.4, 0.2])]);
        assert_eq!(merged.proven, -1);
        assert_eq!(merged.children, [(a, 120, 0.0), (b, 80, 0.0)]);
        // Without a proof, values are weighted by visits.
        let merged = merge(&[report(0, a, [0.5, 0.25]), report(0, a, [1.0, 0.75])]);
        assert_eq!((merged.proven, merged.children), (0, vec![(a, 120, 0.75), (b, 80, 0.5)]));
    }
}
