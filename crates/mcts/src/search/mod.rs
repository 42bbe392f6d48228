//! Classic UCB1 tree search and what lies beyond, on a flat arena of
//! nodes. One file a part: `node` (a node and the UCB1 choice), `proof`
//! (the solver inside the tree), `report` (what a search did); the
//! search itself here.

mod node;
mod proof;
mod report;
mod tactics;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use board::threats::Threats;
use board::{Bitboard, Cell, Outcome, Position, Side, random_playout};
use play::Limits;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::config::MctsConfig;
use crate::playout::{heuristic_playout, threat_playout, valued_outcome};
use crate::sqrt_ln::SqrtLn;
pub use node::NODE_BYTES;
use node::{Ends, Node, best_ucb};
pub use report::MctsReport;
use tactics::Tactics;

/// Iterations between two looks at the clock.
const CLOCK_EVERY: u64 = 16;

/// How often a watched search publishes what it thinks so far.
const PUBLISH_EVERY: Duration = Duration::from_millis(200);

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
    /// The evaluator's ranking, reused between expansions.
    ranked: Vec<(Cell, i32)>,
    /// New children in the order they get, with their threat urgency.
    order: Vec<(Cell, u8, bool)>,
    /// With [`MctsConfig::threats`] or valued leaves: the threats of the
    /// position searched, kept up to date move by move through each
    /// iteration.
    tactics: Option<Box<Tactics>>,
    /// √(ln n) for the exploration term.
    sqrt_ln: SqrtLn,
}

/// A thread of a shared search: its own position, generator and buffers.
struct Worker {
    pos: Position,
    rng: SmallRng,
    path: Vec<u32>,
    scratch: Vec<Cell>,
    threats: [Vec<Cell>; 2],
    ranked: Vec<(Cell, i32)>,
    tactics: Option<Box<Tactics>>,
}

impl Worker {
    fn new(seed: u64, pos: &Position, config: &MctsConfig) -> Worker {
        Worker {
            pos: pos.clone(),
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::new(),
            scratch: Vec::new(),
            threats: [Vec::new(), Vec::new()],
            ranked: Vec::new(),
            tactics: Tactics::of(config, pos),
        }
    }

    /// Plays the position out, as the configuration says.
    fn play_out(&mut self, config: &MctsConfig) -> Outcome {
        if let Some(evaluator) = config.leaf_value.as_deref() {
            let (pos, tactics) = (&self.pos, self.tactics.as_deref_mut());
            valued_outcome(pos, &mut self.rng, || Tactics::score_of(tactics, pos, evaluator))
        } else if let Some(threats) = self
            .tactics
            .as_mut()
            .and_then(|tactics| tactics.playout_threats())
            .filter(|_| config.threat_playouts)
        {
            let ranking = config.playout_ranking.as_deref().map(|evaluator| (evaluator, &mut self.ranked));
            threat_playout(&mut self.pos, &mut self.rng, threats, ranking)
        } else if config.heuristic && self.pos.rules().is_plain() {
            let ranking = config.playout_ranking.as_deref().map(|evaluator| (evaluator, &mut self.ranked));
            heuristic_playout(&mut self.pos, &mut self.rng, &mut self.threats, ranking)
        } else {
            random_playout(&mut self.pos, &mut self.rng, &mut self.scratch).outcome
        }
    }
}

/// Takes back the last move of `pos`, and of `tactics` if kept.
fn take_back(pos: &mut Position, tactics: Option<&mut Box<Tactics>>) {
    let cell = pos.undo().expect("a move to take back");
    if let Some(tactics) = tactics {
        tactics.take_back(pos, cell);
    }
}

/// What a descent keeps up to date beside the position: nothing (`()`,
/// which compiles to the plain descent), or the tactics.
trait Follow {
    /// After `cell` was played on `pos`.
    fn play(&mut self, pos: &Position, cell: Cell);
    /// The threats of the position, if kept.
    fn threats(&self) -> Option<&Threats>;
}

impl Follow for () {
    #[inline]
    fn play(&mut self, _: &Position, _: Cell) {}
    #[inline]
    fn threats(&self) -> Option<&Threats> {
        None
    }
}

impl Follow for &mut Tactics {
    fn play(&mut self, pos: &Position, cell: Cell) {
        Tactics::play(self, pos, cell);
    }
    fn threats(&self) -> Option<&Threats> {
        self.tactical_threats()
    }
}

/// Urgency levels of [`Urgency::of`]: 0 to 5 urgent, 6 the rest.
const CALM: u8 = 6;

/// The cell sets that make a move urgent for the side to move, read once
/// per expansion.
struct Urgency([Bitboard; 6]);

impl Urgency {
    /// In order: completing its five, blocking the opponent's, making an
    /// open four, stopping the opponent's, making a four, an open three.
    fn new(threats: &Threats, mover: Side) -> Urgency {
        let opponent = mover.opponent();
        Urgency([
            threats.five_cells(mover),
            threats.five_cells(opponent),
            threats.open_four_cells(mover),
            threats.open_four_cells(opponent),
            threats.four_cells(mover),
            threats.open_three_cells(mover),
        ])
    }

    /// The first level whose set holds `cell`, or [`CALM`].
    fn of(&self, cell: Cell) -> u8 {
        self.0.iter().position(|cells| cells.contains(cell)).map_or(CALM, |level| level as u8)
    }
}

/// What a descent did.
struct Descent {
    /// Moves played on the position.
    played: usize,
    /// Whether the node limit kept a leaf from growing.
    saturated: bool,
    /// The result, when the descent ended on a proven node.
    known: Option<Outcome>,
}

/// A step of the descent.
enum Choice {
    Untried(usize),
    Tried(usize),
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
            ranked: Vec::new(),
            order: Vec::new(),
            tactics: None,
            sqrt_ln: SqrtLn::new(),
        }
    }

    /// Its settings.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Starts afresh with a new seed (a new game): no tree is kept.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = SmallRng::seed_from_u64(seed);
        self.root = None;
    }

    /// Searches `pos` (not over) within `limits`: `nodes` counts iterations.
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> MctsReport {
        let iterations = limits.nodes.unwrap_or(self.config.iterations).max(1);
        self.search_share(pos, limits, &AtomicU64::new(iterations), true)
    }

    /// Searches `pos` within `limits`, taking iterations from `left` in
    /// small batches until none are left: trees searched in parallel share
    /// one count, so a tree whose core runs slower does fewer iterations
    /// rather than keeping the others waiting for it. With `publish`, a
    /// watched search publishes its analysis now and then.
    pub(crate) fn search_share(
        &mut self,
        pos: &Position,
        limits: &Limits,
        left: &AtomicU64,
        publish: bool,
    ) -> MctsReport {
        /// Iterations taken at a time; the stop flag is checked between
        /// batches, the clock every [`CLOCK_EVERY`] iterations.
        const BATCH: u64 = 256;
        let deadline = limits.deadline(Instant::now());
        self.prepare(pos);
        let mut work = pos.clone();
        let mut done = 0;
        let mut saturated = false;
        let mut published = Instant::now();
        'search: while let Ok(before) =
            left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n > 0).then(|| n - n.min(BATCH)))
        {
            for _ in 0..before.min(BATCH) {
                // A proven root needs no more search (the root's proof is
                // from the view of the player who moved into it: −1 means
                // the side to move wins).
                if self.config.solver && self.nodes[0].proven != 0 {
                    break 'search;
                }
                saturated |= self.iterate(&mut work);
                done += 1;
                // The clock every few iterations: a batch of long playouts
                // on a big board takes milliseconds.
                if done % CLOCK_EVERY == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    break 'search;
                }
            }
            limits.report(done, 0);
            if publish && limits.watched() && published.elapsed() >= PUBLISH_EVERY {
                limits.publish(|| self.report(done, saturated).analysis());
                published = Instant::now();
            }
            if limits.stopped() || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        self.report(done, saturated)
    }

    /// Starts the tree at `pos`: the reused subtree, or a fresh root.
    fn prepare(&mut self, pos: &Position) {
        if !(self.config.reuse && self.reroot(pos)) {
            self.nodes.clear();
            self.push(Cell::new(0, 0), 1.0);
        }
        self.root = Some(pos.clone());
        self.tactics = Tactics::of(&self.config, pos);
    }

    /// Searches `pos` with `threads` threads sharing this one tree: each
    /// descends under a lock, marks its path with a virtual loss (a visit
    /// that has not scored yet, so the others look elsewhere), plays out
    /// without the lock, and backs up under it. Not deterministic.
    pub fn search_shared(&mut self, pos: &Position, limits: &Limits, threads: usize) -> MctsReport {
        let deadline = limits.deadline(Instant::now());
        let iterations = limits.nodes.unwrap_or(self.config.iterations).max(1);
        self.prepare(pos);
        let seeds: Vec<u64> = (0..threads.max(1)).map(|_| self.rng.random()).collect();
        let config = self.config.clone();
        let started = AtomicU64::new(0);
        let completed = AtomicU64::new(0);
        let saturated = AtomicBool::new(false);
        let published = Mutex::new(Instant::now());
        let tree = Mutex::new(&mut *self);
        thread::scope(|scope| {
            for &seed in &seeds {
                let (tree, config, started, completed, saturated, published) =
                    (&tree, &config, &started, &completed, &saturated, &published);
                scope.spawn(move || {
                    let mut worker = Worker::new(seed, pos, config);
                    for own in 0_u64.. {
                        let n = started.fetch_add(1, Ordering::Relaxed);
                        if n >= iterations {
                            break;
                        }
                        if own % CLOCK_EVERY == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                            break;
                        }
                        if n % 256 == 0 {
                            limits.report(n, 0);
                            if limits.watched() {
                                let mut last = published.lock().unwrap_or_else(PoisonError::into_inner);
                                if last.elapsed() >= PUBLISH_EVERY {
                                    let tree = tree.lock().unwrap_or_else(PoisonError::into_inner);
                                    limits.publish(|| {
                                        tree.report(
                                            completed.load(Ordering::Relaxed),
                                            saturated.load(Ordering::Relaxed),
                                        )
                                        .analysis()
                                    });
                                    *last = Instant::now();
                                }
                            }
                            if limits.stopped() {
                                break;
                            }
                        }
                        let descent = {
                            let mut tree = tree.lock().unwrap_or_else(PoisonError::into_inner);
                            if config.solver && tree.nodes[0].proven != 0 {
                                break;
                            }
                            let descent = match worker.tactics.as_deref_mut() {
                                Some(kept) => tree.descend(&mut worker.pos, kept),
                                None => tree.descend(&mut worker.pos, ()),
                            };
                            worker.path.clear();
                            worker.path.extend_from_slice(&tree.path);
                            for &index in &worker.path {
                                tree.visit_pending(index as usize);
                            }
                            descent
                        };
                        if descent.saturated {
                            saturated.store(true, Ordering::Relaxed);
                        }
                        let outcome = descent.known.unwrap_or_else(|| worker.play_out(config));
                        let to_move = worker.pos.side_to_move();
                        tree.lock().unwrap_or_else(PoisonError::into_inner).back_up(
                            &worker.path,
                            outcome,
                            to_move,
                            true,
                        );
                        completed.fetch_add(1, Ordering::Relaxed);
                        for _ in 0..descent.played {
                            take_back(&mut worker.pos, worker.tactics.as_mut());
                        }
                    }
                });
            }
        });
        self.report(completed.load(Ordering::Relaxed), saturated.load(Ordering::Relaxed))
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
        // Copy the subtree into a fresh arena, children kept contiguous,
        // allocated once at its size: while the old arena is read, the two
        // take at most twice the node limit (growth by doubling could
        // take three times), which the memory a manager allows counts on.
        let mut size = 0usize;
        let mut stack = vec![node];
        while let Some(index) = stack.pop() {
            size += 1;
            let parent = self.nodes[index];
            stack.extend((0..usize::from(parent.count)).map(|i| parent.first as usize + i));
        }
        let mut fresh = Vec::with_capacity(size);
        fresh.push(self.nodes[node]);
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
        debug_assert_eq!(fresh.len(), size);
        self.nodes = fresh;
        true
    }

    /// One iteration: select, expand one node, play out, back up. Returns
    /// whether the node limit kept a leaf from growing.
    fn iterate(&mut self, pos: &mut Position) -> bool {
        let mut tactics = self.tactics.take();
        let descent = match tactics.as_deref_mut() {
            Some(threats) => self.descend(pos, threats),
            None => self.descend(pos, ()),
        };
        let valued = match (descent.known, self.config.leaf_value.as_deref()) {
            (None, Some(evaluator)) => {
                let pos = &*pos;
                Some(valued_outcome(pos, &mut self.rng, || {
                    Tactics::score_of(tactics.as_deref_mut(), pos, evaluator)
                }))
            }
            _ => None,
        };
        let outcome = match (
            descent.known.or(valued),
            tactics
                .as_mut()
                .and_then(|tactics| tactics.playout_threats())
                .filter(|_| self.config.threat_playouts),
        ) {
            (Some(outcome), _) => outcome,
            (None, Some(threats)) => {
                let ranking =
                    self.config.playout_ranking.as_deref().map(|evaluator| (evaluator, &mut self.ranked));
                threat_playout(pos, &mut self.rng, threats, ranking)
            }
            (None, None) if self.config.heuristic && pos.rules().is_plain() => {
                let ranking =
                    self.config.playout_ranking.as_deref().map(|evaluator| (evaluator, &mut self.ranked));
                heuristic_playout(pos, &mut self.rng, &mut self.threats, ranking)
            }
            (None, None) => random_playout(pos, &mut self.rng, &mut self.scratch).outcome,
        };
        let path = std::mem::take(&mut self.path);
        self.back_up(&path, outcome, pos.side_to_move(), false);
        self.path = path;
        match tactics.as_mut() {
            Some(_) => (0..descent.played).for_each(|_| take_back(pos, tactics.as_mut())),
            None => (0..descent.played).for_each(|_| {
                pos.undo();
            }),
        }
        self.tactics = tactics;
        descent.saturated
    }

    /// Selection and expansion: from the root down to a new node (or a
    /// finished or proven position), playing the moves on `pos` and
    /// recording the nodes in `self.path`.
    fn descend<F: Follow>(&mut self, pos: &mut Position, mut follow: F) -> Descent {
        let mut node = 0usize;
        let mut descent = Descent { played: 0, saturated: false, known: None };
        self.path.clear();
        self.path.push(0);
        loop {
            if pos.is_over() {
                break;
            }
            if self.config.solver && self.nodes[node].proven != 0 {
                // A proven node's result is known: no playout below it.
                descent.known = Some(self.proven_outcome(node, pos.side_to_move()));
                break;
            }
            if self.nodes[node].count == 0 {
                if self.nodes.len() + pos.legal_move_count() > self.config.node_limit {
                    descent.saturated = true;
                    break;
                }
                self.allocate(pos, node, follow.threats().filter(|_| self.config.threats));
            }
            let child = match self.choose(node) {
                Choice::Untried(child) => {
                    self.nodes[node].tried += 1;
                    let cell = self.nodes[child].cell;
                    pos.play_unchecked(cell);
                    self.nodes[child].ends = Ends::of(pos.outcome());
                    follow.play(pos, cell);
                    descent.played += 1;
                    self.path.push(child as u32);
                    if self.config.solver {
                        self.prove_terminal(child, pos);
                        if let Some(tactics) = follow.threats().filter(|_| self.config.threats)
                            && self.nodes[child].proven == 0
                            && !pos.is_over()
                            && self.prove_by_threats(child, pos, tactics)
                        {
                            descent.known = Some(self.proven_outcome(child, pos.side_to_move()));
                        }
                    }
                    break;
                }
                Choice::Tried(child) => child,
            };
            let Node { cell, ends, .. } = self.nodes[child];
            pos.play_known(cell, ends.outcome(pos.side_to_move()));
            follow.play(pos, cell);
            descent.played += 1;
            self.path.push(child as u32);
            node = child;
        }
        descent
    }

    /// Credits `outcome` along `path`, from the view of the player who
    /// moved into each node; `to_move` is the side to move at the leaf.
    /// With `pending`, the visits were counted already (virtual loss).
    fn back_up(&mut self, path: &[u32], outcome: Outcome, to_move: Side, pending: bool) {
        let mut mover = to_move;
        for &index in path.iter().rev() {
            let moved_in = mover.opponent();
            let halves = match outcome {
                Outcome::Win(side) if side == moved_in => 2,
                Outcome::Win(_) => 0,
                Outcome::Draw => 1,
            };
            let node = &mut self.nodes[index as usize];
            // A pending visit was counted on the way down.
            node.visits += u32::from(!pending);
            node.halves += halves;
            node.refresh();
            mover = moved_in;
        }
        if self.config.solver {
            self.propagate_proofs(path);
        }
    }

    /// Makes room in the arena for `more` nodes, growing it by doubling
    /// but never past the node limit, so that the tree's memory stays
    /// within what the limit allows (a plain push could double it).
    fn make_room(&mut self, more: usize) {
        let needed = self.nodes.len() + more;
        if needed > self.nodes.capacity() {
            let wanted = needed.max(2 * self.nodes.capacity()).min(self.config.node_limit.max(needed));
            self.nodes.reserve_exact(wanted - self.nodes.len());
        }
    }

    /// Adds a node to the arena.
    fn push(&mut self, cell: Cell, prior: f32) {
        self.nodes.push(Node::new(cell, prior));
    }

    /// A shared tree's virtual loss: the visit counts (as a loss) until
    /// its playout comes back, steering other threads elsewhere.
    fn visit_pending(&mut self, index: usize) {
        self.nodes[index].visits += 1;
        self.nodes[index].refresh();
    }

    /// Gives `node` one child per legal move: in a random order (or cell
    /// order, [`MctsConfig::cell_order`]), or with priors, best prior first.
    fn allocate(&mut self, pos: &Position, node: usize, tactics: Option<&Threats>) {
        self.moves.clear();
        self.moves.extend(pos.legal_moves());
        self.make_room(self.moves.len());
        if !self.config.cell_order {
            for i in (1..self.moves.len()).rev() {
                let j = self.rng.random_range(0..=i);
                self.moves.swap(i, j);
            }
        }
        let first = self.nodes.len() as u32;
        if let Some(tactics) = tactics {
            self.allocate_by_threats(pos, tactics);
        } else if let Some(evaluator) = &self.config.priors {
            // Priors by rank, which needs no scale: the k-th best move gets
            // weight 1/k; moves the evaluator does not rank share the last.
            evaluator.rank_moves(pos, &mut self.ranked);
            let ranked = self.ranked.len();
            let harmonic: f64 = (1..=self.moves.len()).map(|k| 1.0 / k as f64).sum();
            // Each legal move once: the evaluator's ranking first.
            let mut given = Bitboard::EMPTY;
            for (rank, &(cell, _)) in self.ranked.iter().enumerate() {
                if pos.is_legal(cell) && !given.contains(cell) {
                    given.insert(cell);
                    self.nodes.push(Node::new(cell, (1.0 / ((rank + 1) as f64 * harmonic)) as f32));
                }
            }
            let tail = (1.0 / ((ranked + 1) as f64 * harmonic)) as f32;
            for &cell in &self.moves {
                if !given.contains(cell) {
                    self.nodes.push(Node::new(cell, tail));
                }
            }
        } else {
            self.nodes.extend(self.moves.iter().map(|&cell| Node::new(cell, 1.0)));
        }
        self.nodes[node].first = first;
        self.nodes[node].count = (self.nodes.len() as u32 - first) as u16;
    }

    /// Pushes the children of `pos` urgent moves first (see [`urgency`]),
    /// then in the evaluator's order if there are priors, else as
    /// `self.moves` has them. With priors, the k-th move gets weight 1/k as
    /// without threats, and moves neither urgent nor ranked share the last.
    fn allocate_by_threats(&mut self, pos: &Position, tactics: &Threats) {
        let urgency = Urgency::new(tactics, pos.side_to_move());
        self.order.clear();
        let mut given = Bitboard::EMPTY;
        if let Some(evaluator) = &self.config.priors {
            evaluator.rank_moves(pos, &mut self.ranked);
            for &(cell, _) in &self.ranked {
                if pos.is_legal(cell) && !given.contains(cell) {
                    given.insert(cell);
                    self.order.push((cell, urgency.of(cell), true));
                }
            }
        }
        for &cell in &self.moves {
            if !given.contains(cell) {
                self.order.push((cell, urgency.of(cell), false));
            }
        }
        // Level by level, in order within a level: a stable bucket pass
        // that allocates nothing (a stable sort would, every expansion).
        let priors = self.config.priors.is_some();
        let harmonic: f64 = (1..=self.order.len()).map(|k| 1.0 / k as f64).sum();
        let scored = self.order.iter().filter(|&&(_, level, ranked)| ranked || level < CALM).count();
        let tail = (1.0 / ((scored + 1) as f64 * harmonic)) as f32;
        let mut rank = 0usize;
        for level in 0..=CALM {
            for &(cell, _, ranked) in self.order.iter().filter(|&&(_, l, _)| l == level) {
                rank += 1;
                let prior = match (priors, ranked || level < CALM) {
                    (false, _) => 1.0,
                    (true, true) => (1.0 / (rank as f64 * harmonic)) as f32,
                    (true, false) => tail,
                };
                self.nodes.push(Node::new(cell, prior));
            }
        }
    }

    /// The next step down from `node`: an untried child to expand, or a
    /// tried one to descend into.
    #[inline]
    fn choose(&self, node: usize) -> Choice {
        let current = self.nodes[node];
        let next_untried =
            (current.tried < current.count).then(|| (current.first + u32::from(current.tried)) as usize);
        if self.config.priors.is_some() {
            return self.choose_puct(node, next_untried);
        }
        // Classic: every child is tried once before UCB1 chooses.
        match next_untried {
            Some(child) => Choice::Untried(child),
            None => Choice::Tried(self.select(node)),
        }
    }

    /// PUCT over the tried children and the next untried one (the best
    /// prior left), which counts as unvisited with the parent's mean value.
    fn choose_puct(&self, node: usize, next_untried: Option<usize>) -> Choice {
        let parent = self.nodes[node];
        let root_n = f64::from(parent.visits.max(1)).sqrt();
        let c = self.config.puct;
        // First-play urgency: an untried move is valued like the position,
        // from the chooser's view (1 − the parent's mean for its mover).
        let fpu = if parent.visits > 0 { 1.0 - parent.score() } else { 0.5 };
        let mut best = (f64::MIN, None);
        let tried = parent.first as usize..(parent.first + u32::from(parent.tried)) as usize;
        for index in tried {
            let child = &self.nodes[index];
            let value = match child.proven {
                1 => f64::MAX,
                -1 => f64::MIN / 2.0,
                _ => {
                    let n = f64::from(child.visits);
                    f64::from(child.mean) + c * f64::from(child.prior) * root_n / (1.0 + n)
                }
            };
            if value > best.0 {
                best = (value, Some(Choice::Tried(index)));
            }
        }
        if let Some(child) = next_untried {
            let value = fpu + c * f64::from(self.nodes[child].prior) * root_n;
            if value > best.0 {
                best = (value, Some(Choice::Untried(child)));
            }
        }
        best.1.expect("a node being chosen from has children")
    }

    /// The child of a fully tried `node` with the highest UCB1 value,
    /// `w/n + c·√(ln N / n)`, computed as `mean + c·√(ln N)·(1/√n)`.
    fn select(&self, node: usize) -> usize {
        let parent = self.nodes[node];
        // The children's mean and 1/√n are f32; the sum is taken in f64.
        // (All in f32 is 6.6% fewer instructions on 3×3, but rounds
        // differently and so changes which child wins close calls: a
        // search change that needs its SPRT first.)
        let explore = self.config.exploration * f64::from(self.sqrt_ln.get(parent.visits));
        let children = parent.first as usize..(parent.first + u32::from(parent.count)) as usize;
        children.start + best_ucb(&self.nodes[children], explore)
    }
}
