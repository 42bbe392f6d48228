//! The database as a tree: the positions one move on from a position that
//! have records, and so on down — what an opening library is. Walks ask a
//! cheap in-memory index first (a hash of each record's position that all
//! its mirror images share) so that a position's 200-odd empty points do
//! not each cost a lookup in the file.

use std::collections::HashSet;

use board::{Cell, Position, Rules, Side};
use rusqlite::params;

use crate::key::PositionKey;
use crate::{Database, DbError, Record};

/// What a walk does at a position it reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Go on to the positions after it.
    Descend,
    /// Leave what lies after it.
    Skip,
}

/// What a deletion does with a position below where it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prune {
    /// Delete it and everything after it.
    Branch,
    /// Keep it and everything after it.
    Keep,
    /// Keep it and decide again for each position after it.
    Look,
}

/// A symmetric hash of every position of one rule set that has a record:
/// a position's hash is the least of its images' Zobrist hashes.
pub(crate) struct Index {
    rules: Rules,
    /// Per dense cell, per side (X, O): the Zobrist number.
    numbers: Vec<[u64; 2]>,
    present: HashSet<u64>,
}

/// Mixed into a hash when O is to move.
const O_TO_MOVE: u64 = 0x9E37_79B9_7F4A_7C15;

impl Index {
    /// The index of the records of `rules` in `database`.
    pub(crate) fn load(database: &Database, rules: Rules) -> Result<Index, DbError> {
        let numbers = (0..rules.area() as u64).map(|i| [mix(2 * i + 1), mix(2 * i + 2)]).collect();
        let mut index = Index { rules, numbers, present: HashSet::new() };
        let mut statement = database
            .connection()
            .prepare("SELECT key FROM positions WHERE rules = ?1")
            .map_err(|source| database.sqlite(source))?;
        let rows = statement
            .query_map(params![rules.to_string()], |row| row.get::<_, Vec<u8>>(0))
            .map_err(|source| database.sqlite(source))?;
        for row in rows {
            let bytes = row.map_err(|source| database.sqlite(source))?;
            let images = index.images_of_key(&bytes);
            index.present.insert(least(&images));
        }
        Ok(index)
    }

    /// The hash of each image of the position a key's bytes spell.
    fn images_of_key(&self, bytes: &[u8]) -> Vec<u64> {
        let rules = &self.rules;
        let mut images =
            vec![if bytes.first() == Some(&1) { O_TO_MOVE } else { 0 }; rules.symmetries().len()];
        for i in 0..rules.area() {
            let mark = bytes.get(1 + i / 4).map_or(0, |byte| (byte >> (2 * (i % 4))) & 3);
            let Some(side) = (match mark {
                1 => Some(0),
                2 => Some(1),
                _ => None,
            }) else {
                continue;
            };
            let Some(cell) = cell_at(*rules, i) else { continue };
            for (image, &transform) in images.iter_mut().zip(rules.symmetries()) {
                *image ^= self.numbers[rules.dense_index(transform.apply(cell, rules))][side];
            }
        }
        images
    }

    /// The hash of each image of `pos`.
    pub(crate) fn images(&self, pos: &Position) -> Vec<u64> {
        let rules = &self.rules;
        let mut images =
            vec![if pos.side_to_move() == Side::O { O_TO_MOVE } else { 0 }; rules.symmetries().len()];
        for (side, stones) in [(0, pos.marks(Side::X)), (1, pos.marks(Side::O))] {
            for cell in stones {
                for (image, &transform) in images.iter_mut().zip(rules.symmetries()) {
                    *image ^= self.numbers[rules.dense_index(transform.apply(cell, rules))][side];
                }
            }
        }
        images
    }

    /// Whether the position after `side` plays `cell` where the images
    /// hash to `images` may have a record (a false "yes" costs a lookup;
    /// a "no" is certain).
    pub(crate) fn may_hold(&self, images: &[u64], cell: Cell, side: Side) -> bool {
        let rules = &self.rules;
        let side = usize::from(side == Side::O);
        let hash = images
            .iter()
            .zip(rules.symmetries())
            .map(|(&image, &transform)| {
                image ^ O_TO_MOVE ^ self.numbers[rules.dense_index(transform.apply(cell, rules))][side]
            })
            .min()
            .unwrap_or(0);
        self.present.contains(&hash)
    }
}

fn least(images: &[u64]) -> u64 {
    images.iter().copied().min().unwrap_or(0)
}

/// `SplitMix64`: well-spread numbers from a counter.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The cell of dense index `index` on a board of `rules`.
pub(crate) fn cell_at(rules: Rules, index: usize) -> Option<Cell> {
    let width = usize::from(rules.width());
    rules.cell(i32::try_from(index % width).ok()?, i32::try_from(index / width).ok()?)
}

impl Database {
    /// The positions one move from `pos` that have records, with the
    /// move, in row order, looked up through `index`.
    pub(crate) fn children_by(&self, index: &Index, pos: &Position) -> Result<Vec<(Cell, Record)>, DbError> {
        let images = index.images(pos);
        let side = pos.side_to_move();
        self.children_where(pos, |cell| index.may_hold(&images, cell, side))
    }

    /// The positions one move from `pos` that have records, of the legal
    /// cells `may_hold` lets through (it may let more through, never fewer).
    pub(crate) fn children_where(
        &self,
        pos: &Position,
        may_hold: impl Fn(Cell) -> bool,
    ) -> Result<Vec<(Cell, Record)>, DbError> {
        let mut found = Vec::new();
        let mut after = pos.clone();
        for cell in pos.legal_cells().into_iter().filter(|&cell| may_hold(cell)) {
            after.play_unchecked(cell);
            let record = self.get(&after);
            after.undo();
            if let Some(record) = record? {
                found.push((cell, record));
            }
        }
        Ok(found)
    }

    /// Visits each position below `pos` (not `pos` itself) reachable by
    /// moves through positions with records, each once however many ways
    /// lead to it, depth first in row order; `visit` says whether to go
    /// on below the position it is given.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read, or the first error
    /// of `visit`.
    pub fn walk(
        &self,
        pos: &Position,
        mut visit: impl FnMut(&Position, &Record) -> Result<Step, DbError>,
    ) -> Result<(), DbError> {
        let index = Index::load(self, *pos.rules())?;
        let mut seen = HashSet::new();
        let mut here = pos.clone();
        self.walk_below(&index, &mut here, &mut seen, &mut visit)
    }

    fn walk_below(
        &self,
        index: &Index,
        here: &mut Position,
        seen: &mut HashSet<Vec<u8>>,
        visit: &mut dyn FnMut(&Position, &Record) -> Result<Step, DbError>,
    ) -> Result<(), DbError> {
        if here.is_over() {
            return Ok(());
        }
        for (cell, record) in self.children_by(index, here)? {
            here.play_unchecked(cell);
            let fresh = seen.insert(PositionKey::of(here).bytes);
            let result = if fresh && visit(here, &record)? == Step::Descend {
                self.walk_below(index, here, seen, visit)
            } else {
                Ok(())
            };
            here.undo();
            result?;
        }
        Ok(())
    }

    /// Deletes records below `pos` as `decide` says of each (given its
    /// record), in one transaction; a position `Keep` or `Branch` decided
    /// is not looked below again. `pos`'s own record stays, and so does a
    /// position below a deleted branch that another line still reaches
    /// (a transposition: from the empty board or from `pos`, through
    /// records, without passing a deleted branch's first position).
    /// Returns how many records were deleted.
    ///
    /// # Errors
    /// [`DbError::ReadOnly`], or a file that cannot be read or written
    /// (nothing is deleted).
    pub fn delete_below(
        &mut self,
        pos: &Position,
        mut decide: impl FnMut(&Record) -> Prune,
    ) -> Result<u64, DbError> {
        // The positions to delete are found first, then deleted at once.
        let mut doomed: Vec<Position> = Vec::new();
        // The depths of the deleted branches the walk is in (depth first).
        let mut branches: Vec<usize> = Vec::new();
        // The first positions of the deleted branches.
        let mut heads: Vec<Position> = Vec::new();
        self.walk(pos, |here, record| {
            let depth = here.moves().len();
            while branches.last().is_some_and(|&branch| branch >= depth) {
                branches.pop();
            }
            // Below a deleted branch, everything goes.
            if !branches.is_empty() {
                doomed.push(here.clone());
                return Ok(Step::Descend);
            }
            Ok(match decide(record) {
                Prune::Branch => {
                    doomed.push(here.clone());
                    heads.push(here.clone());
                    branches.push(depth);
                    Step::Descend
                }
                Prune::Keep => Step::Skip,
                Prune::Look => Step::Descend,
            })
        })?;
        // What other lines reach stays: walk again from the empty board
        // and from `pos`, stopping at each deleted branch's first position.
        let heads: HashSet<Vec<u8>> = heads.iter().map(|head| PositionKey::of(head).bytes).collect();
        let mut reached: HashSet<Vec<u8>> = HashSet::new();
        for start in [Position::new(*pos.rules()), pos.clone()] {
            self.walk(&start, |here, _| {
                let key = PositionKey::of(here).bytes;
                if heads.contains(&key) {
                    return Ok(Step::Skip);
                }
                reached.insert(key);
                Ok(Step::Descend)
            })?;
        }
        doomed.retain(|doomed| {
            heads.contains(&PositionKey::of(doomed).bytes)
                || !reached.contains(&PositionKey::of(doomed).bytes)
        });
        let count = doomed.len() as u64;
        self.write(|database| {
            for doomed in &doomed {
                database.delete_in(doomed)?;
            }
            Ok(())
        })?;
        Ok(count)
    }

    /// Copies `pos`'s record, those below it and those on the way to it
    /// from the empty board into `other`, where it has none; returns how
    /// many it copied. One transaction in `other`.
    ///
    /// # Errors
    /// [`DbError::ReadOnly`] for `other`, or a file that cannot be read
    /// or written (nothing is copied).
    pub fn split_into(&self, pos: &Position, other: &mut Database) -> Result<u64, DbError> {
        let mut copied = Vec::new();
        let mut on_the_way = Position::new(*pos.rules());
        for &cell in pos.moves() {
            on_the_way.play_unchecked(cell);
            if let Some(record) = self.get(&on_the_way)? {
                copied.push((on_the_way.clone(), record));
            }
        }
        self.walk(pos, |here, record| {
            copied.push((here.clone(), record.clone()));
            Ok(Step::Descend)
        })?;
        other.write(|other| {
            let mut count = 0;
            for (position, record) in &copied {
                if other.get(position)?.is_none() {
                    other.put_in(position, record)?;
                    count += 1;
                }
            }
            Ok(count)
        })
    }
}
