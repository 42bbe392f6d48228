//! Classic UCB1 tree search on a flat arena of nodes.

use std::time::Instant;

use board::{
    Agent, AgentError, Analysis, Cell, CellScore, Limits, Outcome, Position, ScoreKind, mix_seed,
    random_playout,
};
use rand::rngs::SmallRng;

use crate::playout::heuristic_playout;
use rand::{RngExt, SeedableRng};

/// How the search runs.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per move, unless the limits say otherwise.
    pub iterations: u64,
    /// The exploration constant `c` of UCB1.
    pub exploration: f64,
    /// The most nodes the tree may hold; past it, leaves are played out
    /// without being expanded.
    pub node_limit: usize,
    /// Before searching, take a win at once and block a single immediate
    /// loss (what random playouts can miss on large boards).
    pub root_rules: bool,
    /// Keep the subtree of the moves actually played between searches.
    pub reuse: bool,
    /// Playouts that take a win and block a loss instead of purely random ones.
    pub heuristic: bool,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            iterations: 10_000,
            exploration: std::f64::consts::SQRT_2,
            node_limit: 4_000_000,
            root_rules: true,
            reuse: false,
            heuristic: false,
        }
    }
}

/// One node: the move into it and the statistics of the player who made it.
#[derive(Clone, Copy, Debug)]
struct Node {
    cell: Cell,
    /// Children occupy `first..first + count` in the arena once allocated.
    first: u32,
    count: u16,
    /// Children tried so far (the first `tried` of them).
    tried: u16,
    visits: u32,
    /// Wins (1) and draws (½) for the player who moved into this node.
    score: f64,
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The most visited move.
    pub best_move: Option<Cell>,
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Whether the node limit stopped the tree from growing.
    pub saturated: bool,
    /// Every root move with its visits and mean score.
    pub children: Vec<(Cell, u32, f64)>,
    /// Visits of the root (more than the iterations when a subtree was reused).
    pub root_visits: u32,
    /// The most visited line.
    pub line: Vec<Cell>,
}

/// The search: its arena and generator, kept between moves.
#[derive(Debug)]
pub struct Mcts {
    config: MctsConfig,
    nodes: Vec<Node>,
    rng: SmallRng,
    scratch: Vec<Cell>,
    moves: Vec<Cell>,
    path: Vec<u32>,
    /// The position the tree's root stands for.
    root: Option<Position>,
    /// Each side's winning cells during a heuristic playout.
    threats: [Vec<Cell>; 2],
}

impl Mcts {
    /// A search with `config`, seeded with `seed`.
    #[must_use]
    pub fn new(config: MctsConfig, seed: u64) -> Mcts {
        Mcts {
            config,
            nodes: Vec::new(),
            rng: SmallRng::seed_from_u64(seed),
            scratch: Vec::new(),
            moves: Vec::new(),
            path: Vec::new(),
            root: None,
            threats: [Vec::new(), Vec::new()],
        }
    }

    /// Searches `pos` (not over) within `limits`: `nodes` counts iterations.
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> SearchReport {
        let start = Instant::now();
        let deadline = limits.deadline(start);
        let iterations = limits.nodes.unwrap_or(self.config.iterations).max(1);
        if !(self.config.reuse && self.reroot(pos)) {
            self.nodes.clear();
            self.nodes.push(Node {
                cell: Cell::new(0, 0),
                first: 0,
                count: 0,
                tried: 0,
                visits: 0,
                score: 0.0,
            });
        }
        self.root = Some(pos.clone());
        let mut work = pos.clone();
        let mut done = 0;
        let mut saturated = false;
        while done < iterations {
            saturated |= self.iterate(&mut work);
            done += 1;
            if done % 256 == 0 {
                limits.report(done, 0);
                if limits.stopped() || deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
        }
        self.report(done, saturated)
    }

    /// Makes the node reached from the old root by the moves played since
    /// the new root, keeping its subtree and statistics. False if `pos` does
    /// not follow the old root or that node was never tried.
    fn reroot(&mut self, pos: &Position) -> bool {
        let Some(old) = &self.root else { return false };
        let (before, now) = (old.moves(), pos.moves());
        if old.rules() != pos.rules() || now.len() < before.len() || &now[..before.len()] != before {
            return false;
        }
        let mut node = 0usize;
        for &cell in &now[before.len()..] {
            let parent = self.nodes[node];
            let tried = parent.first as usize..(parent.first + u32::from(parent.tried)) as usize;
            let Some(child) = tried.into_iter().find(|&i| self.nodes[i].cell == cell) else {
                return false;
            };
            node = child;
        }
        // Copy the subtree into a fresh arena, children kept contiguous.
        let mut fresh = vec![self.nodes[node]];
        let mut queue = std::collections::VecDeque::from([(node, 0usize)]);
        while let Some((old_index, new_index)) = queue.pop_front() {
            let parent = self.nodes[old_index];
            if parent.count == 0 {
                continue;
            }
            let first = fresh.len();
            for i in 0..usize::from(parent.count) {
                fresh.push(self.nodes[parent.first as usize + i]);
                queue.push_back((parent.first as usize + i, first + i));
            }
            fresh[new_index].first = first as u32;
        }
        self.nodes = fresh;
        true
    }

    /// One iteration: select, expand one node, play out, back up. Returns
    /// whether the node limit kept a leaf from growing.
    fn iterate(&mut self, pos: &mut Position) -> bool {
        let mut node = 0usize;
        let mut played = 0;
        let mut saturated = false;
        self.path.clear();
        self.path.push(0);
        loop {
            if pos.is_over() {
                break;
            }
            if self.nodes[node].count == 0 {
                if self.nodes.len() + pos.legal_move_count() > self.config.node_limit {
                    saturated = true;
                    break;
                }
                self.allocate(pos, node);
            }
            let current = self.nodes[node];
            if current.tried < current.count {
                // One new node: the next untried move (in shuffled order).
                let child = (current.first + u32::from(current.tried)) as usize;
                self.nodes[node].tried += 1;
                pos.play_unchecked(self.nodes[child].cell);
                played += 1;
                self.path.push(child as u32);
                break;
            }
            let child = self.select(node);
            pos.play_unchecked(self.nodes[child].cell);
            played += 1;
            self.path.push(child as u32);
            node = child;
        }
        let outcome = if self.config.heuristic {
            heuristic_playout(pos, &mut self.rng, &mut self.threats)
        } else {
            random_playout(pos, &mut self.rng, &mut self.scratch).outcome
        };
        // Back up from the view of the player who moved into each node:
        // the side to move at the node's parent.
        let mut mover = pos.side_to_move();
        for &index in self.path.iter().rev() {
            let moved_in = mover.opponent();
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.score += match outcome {
                Outcome::Win(side) if side == moved_in => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            };
            mover = moved_in;
        }
        for _ in 0..played {
            pos.undo();
        }
        saturated
    }

    /// Gives `node` one child per legal move, in a random order.
    fn allocate(&mut self, pos: &Position, node: usize) {
        self.moves.clear();
        self.moves.extend(pos.legal_moves());
        for i in (1..self.moves.len()).rev() {
            let j = self.rng.random_range(0..=i);
            self.moves.swap(i, j);
        }
        let first = self.nodes.len() as u32;
        for &cell in &self.moves {
            self.nodes.push(Node { cell, first: 0, count: 0, tried: 0, visits: 0, score: 0.0 });
        }
        self.nodes[node].first = first;
        self.nodes[node].count = self.moves.len() as u16;
    }

    /// The child of a fully tried `node` with the highest UCB1 value.
    fn select(&self, node: usize) -> usize {
        let parent = self.nodes[node];
        let log_n = f64::from(parent.visits).ln();
        let c = self.config.exploration;
        let children = parent.first as usize..(parent.first + u32::from(parent.count)) as usize;
        let mut best = (f64::MIN, children.start);
        for index in children {
            let child = &self.nodes[index];
            let n = f64::from(child.visits);
            let value = child.score / n + c * (log_n / n).sqrt();
            if value > best.0 {
                best = (value, index);
            }
        }
        best.1
    }

    fn most_visited(&self, node: usize) -> Option<usize> {
        let parent = self.nodes[node];
        (parent.first as usize..(parent.first + u32::from(parent.tried)) as usize)
            .max_by_key(|&index| self.nodes[index].visits)
    }

    fn report(&self, iterations: u64, saturated: bool) -> SearchReport {
        let root = self.nodes[0];
        let children = (root.first as usize..(root.first + u32::from(root.tried)) as usize)
            .map(|i| {
                let node = self.nodes[i];
                (node.cell, node.visits, node.score / f64::from(node.visits.max(1)))
            })
            .collect();
        let mut line = Vec::new();
        let mut node = 0;
        while let Some(child) = self.most_visited(node) {
            line.push(self.nodes[child].cell);
            node = child;
        }
        SearchReport {
            best_move: line.first().copied(),
            iterations,
            nodes: self.nodes.len(),
            saturated,
            children,
            root_visits: root.visits,
            line,
        }
    }
}

/// A win now, else the block of the opponent's only win now.
fn forced_move(pos: &Position) -> Option<Cell> {
    let mover = pos.side_to_move();
    let empty = pos.empty_cells();
    if let Some(win) = empty.iter().find(|&cell| pos.wins_at(cell, mover)) {
        return Some(win);
    }
    let mut threats = empty.iter().filter(|&cell| pos.wins_at(cell, mover.opponent()));
    match (threats.next(), threats.next()) {
        (Some(block), None) => Some(block),
        _ => None,
    }
}

/// Classic UCB1 search as a player.
#[derive(Debug)]
pub struct MctsAgent {
    search: Mcts,
    seed: u64,
    games: u64,
    analysis: Option<Analysis>,
}

impl MctsAgent {
    /// A player searching with `config`, its random choices seeded by `seed`.
    #[must_use]
    pub fn new(config: MctsConfig, seed: u64) -> MctsAgent {
        MctsAgent { search: Mcts::new(config, seed), seed, games: 0, analysis: None }
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> String {
        "uct".to_owned()
    }

    fn new_game(&mut self, _rules: &board::Rules) {
        self.games += 1;
        self.search.rng = SmallRng::seed_from_u64(mix_seed(self.seed, self.games));
        self.search.root = None;
        self.analysis = None;
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError("the game is over".to_owned()));
        }
        if self.search.config.root_rules
            && let Some(cell) = forced_move(pos)
        {
            self.analysis = Some(Analysis {
                best_move: Some(cell),
                scores: vec![CellScore { cell, score: 1.0 }],
                score_kind: ScoreKind::VisitShare,
                line: vec![cell],
                value: None,
                nodes: 0,
                depth: None,
            });
            return Ok(cell);
        }
        let report = self.search.search(pos, limits);
        let cell = report.best_move.ok_or_else(|| AgentError("no move searched".to_owned()))?;
        let total: u32 = report.children.iter().map(|&(_, visits, _)| visits).sum();
        let best_value = report.children.iter().find(|&&(c, _, _)| c == cell).map(|&(_, _, value)| value);
        self.analysis = Some(Analysis {
            best_move: Some(cell),
            scores: report
                .children
                .iter()
                .map(|&(cell, visits, _)| CellScore {
                    cell,
                    score: f64::from(visits) / f64::from(total.max(1)),
                })
                .collect(),
            score_kind: ScoreKind::VisitShare,
            line: report.line,
            value: best_value,
            nodes: report.iterations,
            depth: None,
        });
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}
