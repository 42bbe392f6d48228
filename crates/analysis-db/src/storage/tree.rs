//! The database as a tree: the positions one move on from a position that
//! have records, and so on down — what an opening library is. Walks ask a
//! cheap in-memory index first (a hash of each record's position that all
//! its mirror images share) so that a position's 200-odd empty points do
//! not each cost a lookup in the file.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use board::{Cell, Position, Rules, Side, Transform};
use rusqlite::params;

use crate::storage::key::{KeyHasher, KeySet, PositionKey};
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

/// A position one move on that has a record.
pub(crate) struct Child {
    /// The move.
    pub cell: Cell,
    pub record: Record,
    /// The key of the position after the move.
    pub key: PositionKey,
    /// Whether the move reaches the position in the image its record was
    /// first written in (the moves as they were entered); `None` where the
    /// file does not say.
    pub as_entered: Option<bool>,
}

/// Every record of one rule set that is one move from another, by a
/// symmetric hash (a position's hash is the least of its images' Zobrist
/// hashes): a walk finds a position's children among the few its hash
/// lists, with no lookup in the file for a move that leads nowhere and
/// no probe of a large table for each of its 200-odd empty points.
pub(crate) struct Index {
    rules: Rules,
    /// Per symmetry, per dense cell, per side (X, O): the Zobrist number
    /// of the cell the symmetry takes it to.
    numbers: Vec<Vec<[u64; 2]>>,
    /// (parent's hash, child's hash), by parent: a record and each record
    /// its last mover's stone taken away leaves.
    edges: Vec<(u64, u64)>,
}

/// Mixed into a hash when O is to move.
const O_TO_MOVE: u64 = 0x9E37_79B9_7F4A_7C15;

impl Index {
    /// The index of the records of `start`'s rules in `database`, for walks
    /// from `start` (which may have no record).
    pub(crate) fn load(database: &Database, start: &Position) -> Result<Index, DbError> {
        let rules = *start.rules();
        let plain: Vec<[u64; 2]> =
            (0..rules.area() as u64).map(|i| [mix(2 * i + 1), mix(2 * i + 2)]).collect();
        let numbers = rules
            .symmetries()
            .iter()
            .map(|transform| {
                rules.cells().map(|cell| plain[rules.dense_index(transform.apply(cell, &rules))]).collect()
            })
            .collect();
        let mut index = Index { rules, numbers, edges: Vec::new() };
        // Each record's images' hashes, its last mover, and that side's stones.
        let mut records: Vec<(Vec<u64>, usize, Vec<usize>)> = Vec::new();
        let mut statement = database
            .connection()
            .prepare("SELECT key FROM positions WHERE rules = ?1")
            .map_err(|source| database.sqlite(source))?;
        let rows = statement
            .query_map(params![rules.to_string()], |row| row.get::<_, Vec<u8>>(0))
            .map_err(|source| database.sqlite(source))?;
        for row in rows {
            let bytes = row.map_err(|source| database.sqlite(source))?;
            records.push(index.read_key(&bytes));
        }
        let mut present: HashSet<u64, BuildHasherDefault<KeyHasher>> =
            records.iter().map(|(images, _, _)| least(images)).collect();
        present.insert(least(&index.images(start)));
        let mut parent = vec![0; rules.symmetries().len()];
        for (images, mover, stones) in &records {
            let child = least(images);
            for &at in stones {
                for ((parent, &image), numbers) in parent.iter_mut().zip(images).zip(&index.numbers) {
                    *parent = image ^ O_TO_MOVE ^ numbers[at][*mover];
                }
                let hash = least(&parent);
                if present.contains(&hash) {
                    index.edges.push((hash, child));
                }
            }
        }
        index.edges.sort_unstable();
        index.edges.dedup();
        Ok(index)
    }

    /// The hashes of a key's images, its last mover (the side not to move:
    /// 0 X, 1 O) and that side's stones, dense indices.
    fn read_key(&self, bytes: &[u8]) -> (Vec<u64>, usize, Vec<usize>) {
        let o_to_move = bytes.first() == Some(&1);
        let mut images = vec![if o_to_move { O_TO_MOVE } else { 0 }; self.numbers.len()];
        // X moved last when O is to move.
        let mover_mark = if o_to_move { 1 } else { 2 };
        let mut stones = Vec::new();
        for (byte_at, &byte) in bytes.iter().enumerate().skip(1) {
            if byte == 0 {
                continue;
            }
            for slot in 0..4 {
                let mark = (byte >> (2 * slot)) & 3;
                let side = match mark {
                    1 => 0,
                    2 => 1,
                    _ => continue,
                };
                let i = (byte_at - 1) * 4 + slot;
                if i >= self.rules.area() {
                    continue;
                }
                for (image, numbers) in images.iter_mut().zip(&self.numbers) {
                    *image ^= numbers[i][side];
                }
                if mark == mover_mark {
                    stones.push(i);
                }
            }
        }
        (images, usize::from(!o_to_move), stones)
    }

    /// The hash of each image of `pos`.
    pub(crate) fn images(&self, pos: &Position) -> Vec<u64> {
        let rules = &self.rules;
        let mut images =
            vec![if pos.side_to_move() == Side::O { O_TO_MOVE } else { 0 }; rules.symmetries().len()];
        for (side, stones) in [(0, pos.marks(Side::X)), (1, pos.marks(Side::O))] {
            for cell in stones {
                let at = rules.dense_index(cell);
                for (image, numbers) in images.iter_mut().zip(&self.numbers) {
                    *image ^= numbers[at][side];
                }
            }
        }
        images
    }

    /// The hashes of the records one move from the position whose images
    /// hash to `images`.
    pub(crate) fn children_of(&self, images: &[u64]) -> &[(u64, u64)] {
        let hash = least(images);
        let start = self.edges.partition_point(|&(parent, _)| parent < hash);
        let end = self.edges.partition_point(|&(parent, _)| parent <= hash);
        &self.edges[start..end]
    }

    /// The hash of the position after `side` plays `cell` where the images
    /// hash to `images`.
    pub(crate) fn hash_after(&self, images: &[u64], cell: Cell, side: Side) -> u64 {
        let side = usize::from(side == Side::O);
        let at = self.rules.dense_index(cell);
        images
            .iter()
            .zip(&self.numbers)
            .map(|(&image, numbers)| image ^ O_TO_MOVE ^ numbers[at][side])
            .min()
            .unwrap_or(0)
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
        Ok(self.children_keyed(index, pos)?.into_iter().map(|child| (child.cell, child.record)).collect())
    }

    /// [`Database::children_by`] with each child's key and the image its
    /// record was first written in: what an export weighs.
    pub(crate) fn children_keyed(&self, index: &Index, pos: &Position) -> Result<Vec<Child>, DbError> {
        let images = index.images(pos);
        let children = index.children_of(&images);
        let mut found = Vec::new();
        if children.is_empty() {
            return Ok(found);
        }
        let side = pos.side_to_move();
        let mut after = pos.clone();
        let leads = |cell: Cell| {
            let hash = index.hash_after(&images, cell, side);
            children.iter().any(|&(_, child)| child == hash)
        };
        for cell in pos.legal_cells().into_iter().filter(|&cell| leads(cell)) {
            after.play_unchecked(cell);
            let key = PositionKey::of(&after);
            let record = self.get_with_image(&after, &key);
            // (A symmetric position has other transforms to the same image.)
            let as_entered = |image: Transform| image == key.transform || key.is_image(&after, image);
            let found_here = record?.map(|(record, image)| (record, image.map(as_entered)));
            after.undo();
            if let Some((record, as_entered)) = found_here {
                found.push(Child { cell, record, key, as_entered });
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
        let index = Index::load(self, pos)?;
        let mut seen = KeySet::default();
        let mut here = pos.clone();
        self.walk_below(&index, &mut here, &mut seen, &mut visit)
    }

    fn walk_below(
        &self,
        index: &Index,
        here: &mut Position,
        seen: &mut KeySet,
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
        let heads: KeySet = heads.iter().map(|head| PositionKey::of(head).bytes).collect();
        let mut reached = KeySet::default();
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
