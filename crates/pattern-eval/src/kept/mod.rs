//! What the evaluations keep for a search, move by move: the codes each
//! move of the line changed (the one record both levels read), the code
//! tables' sums ([`CodeStack`], summed as moves are made: two adds a
//! changed cell) and the network's pooled sums (`net::NetStack`, computed
//! only when a position is evaluated). Each is a
//! [`play::Accumulator`] a search owns: pushed after a move, popped after
//! its take-back.

mod codes;

use board::threats::{Code, Threats};
use board::{Cell, Position};

pub(crate) use codes::{CodeLevel, CodeStack, Sums};

/// One cell's codes (X's, O's) before and after a move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Recode {
    pub(crate) cell: Cell,
    pub(crate) old: [Code; 2],
    pub(crate) new: [Code; 2],
}

/// The codes the kept sums were made from, and what each move of the
/// current line changed: the first recode of a move is its own cell
/// (filled, whatever its codes were), the rest are the empty cells whose
/// codes it changed.
#[derive(Clone, Debug)]
pub(crate) struct Recodes {
    /// By cell slot: the codes (X's, O's) as of the last push or pop.
    codes: Vec<[Code; 2]>,
    log: Vec<Recode>,
    /// Where each pushed move's recodes start in `log`.
    starts: Vec<usize>,
}

impl Recodes {
    /// The codes of the position `threats` were made for, no move pushed.
    pub(crate) fn new(pos: &Position, threats: &Threats) -> Recodes {
        let mut codes = vec![[0; 2]; Cell::SLOTS];
        for cell in pos.rules().cells() {
            codes[cell.index()] = threats.codes(cell);
        }
        Recodes { codes, log: Vec::with_capacity(1024), starts: Vec::with_capacity(128) }
    }

    /// Records what the move on `cell` changed: the cells the tracker's
    /// journal names, else those within its reach, whose codes differ
    /// from those kept.
    #[inline]
    pub(crate) fn push(&mut self, threats: &Threats, cell: Cell) -> &[Recode] {
        let start = self.log.len();
        self.starts.push(start);
        let Recodes { codes, log, .. } = self;
        let mut record = |cell: Cell, always: bool| {
            let kept = &mut codes[cell.index()];
            let new = threats.codes(cell);
            if always || *kept != new {
                log.push(Recode { cell, old: *kept, new });
                *kept = new;
            }
        };
        record(cell, true);
        if let Some(changes) = threats.last_play_changes() {
            changes.for_each(|other| record(other, false));
        } else {
            threats.reach(cell).iter().for_each(|other| record(other, false));
        }
        &self.log[start..]
    }

    /// Forgets the last move pushed, its cells' codes as before it.
    #[inline]
    pub(crate) fn pop(&mut self) {
        let start = self.starts.pop().expect("a pushed move to pop");
        for recode in &self.log[start..] {
            self.codes[recode.cell.index()] = recode.old;
        }
        self.log.truncate(start);
    }

    /// How many moves are pushed.
    #[inline]
    pub(crate) fn depth(&self) -> usize {
        self.starts.len()
    }

    /// What the `i`th move pushed (from 0) changed, its own cell first.
    #[inline]
    pub(crate) fn of_move(&self, i: usize) -> &[Recode] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.log.len());
        &self.log[self.starts[i]..end]
    }
}

/// For the property tests of the kept levels: `steps` random moves near
/// the centre and take-backs (three in ten) from the empty board of
/// `rules`, kept in the threats and `kept` alike, `check` run after each;
/// then every move taken back, `check` run at the root once more.
#[cfg(test)]
pub(crate) fn random_walk<A: play::Accumulator + ?Sized, E>(
    rules: board::Rules,
    seed: u64,
    steps: usize,
    kept: &mut A,
    mut check: impl FnMut(&mut A, &Position, &Threats) -> Result<(), E>,
) -> Result<(), E> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut pos = Position::new(rules);
    let mut threats = Threats::new(&pos).expect("tabled rules");
    let centre = (rules.width() / 2, rules.height() / 2);
    for _ in 0..steps {
        if pos.ply() > 0 && (pos.is_over() || rng.random_bool(0.3)) {
            let cell = pos.undo().expect("a move");
            threats.take_back(&pos, cell);
            kept.pop();
        } else {
            let near = |c: &Cell| c.x().abs_diff(centre.0) < 5 && c.y().abs_diff(centre.1) < 5;
            let moves: Vec<Cell> = pos.legal_moves().filter(near).collect();
            let Some(&cell) = moves.get(rng.random_range(0..moves.len().max(1))) else { break };
            pos.play(cell).expect("a legal move");
            threats.play(&pos, cell);
            kept.push(&pos, &threats, cell);
        }
        check(kept, &pos, &threats)?;
    }
    while let Some(cell) = pos.undo() {
        threats.take_back(&pos, cell);
        kept.pop();
    }
    check(kept, &pos, &threats)
}
