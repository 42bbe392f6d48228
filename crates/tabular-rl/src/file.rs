//! Tables on disk: bincode after a magic string and a format version, then
//! a checksum of all that (from version 2), written to a temporary file and
//! renamed, so a file is whole or absent, and a damaged one is refused.

use std::path::Path;
use std::sync::Arc;

use bincode::config::standard;
use board::Rules;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::keys::KeySpace;
use crate::matrix::{MatrixParams, Situations, WeightMatrix};
use crate::montecarlo::ScoreTable;
use crate::policy::Policy;
use crate::td::{TdLearner, TdParams};

/// The first bytes of every table file.
const MAGIC: [u8; 8] = *b"mnk-tabl";
/// The layout version this build writes: 2 adds the checksum. Version 1
/// files, without it, still load.
pub const FORMAT: u32 = 2;

/// The most memory decoding a table may claim (a damaged length would
/// otherwise ask for any amount).
const DECODE_LIMIT: usize = 1 << 30;

/// A table that cannot be saved or loaded.
#[derive(Debug, Error)]
pub enum TableError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not a table, or is cut short.
    #[error("{path} is not a table file this build can read: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// Any of the three learners' tables.
#[derive(Clone, Debug)]
pub enum Table {
    /// The weight-matrix learner.
    Matrix(WeightMatrix),
    /// The Monte-Carlo score table.
    Scores(ScoreTable),
    /// The TD learner.
    Td(TdLearner),
}

impl Table {
    /// The learner's name: `matrix`, `montecarlo` or `td`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Table::Matrix(_) => "matrix",
            Table::Scores(_) => "montecarlo",
            Table::Td(_) => "td",
        }
    }

    /// The keys it was trained with.
    #[must_use]
    pub fn space(&self) -> &KeySpace {
        match self {
            Table::Matrix(table) => &table.space,
            Table::Scores(table) => &table.space,
            Table::Td(table) => &table.space,
        }
    }

    /// The table as a policy that plays.
    #[must_use]
    pub fn into_policy(self) -> Arc<dyn Policy> {
        match self {
            Table::Matrix(table) => Arc::new(table),
            Table::Scores(table) => Arc::new(table),
            Table::Td(table) => Arc::new(table),
        }
    }

    /// Writes the table to `path` atomically.
    ///
    /// # Errors
    /// [`TableError::Io`] if the file cannot be written.
    ///
    /// # Panics
    /// Never: encoding plain numbers into memory cannot fail.
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        let io = |source| TableError::Io { path: path.display().to_string(), source };
        let file = TableFile {
            magic: MAGIC,
            format: FORMAT,
            rules: self.space().rules(),
            symmetric: self.space().is_symmetric(),
            body: self.body(),
        };
        let mut bytes = bincode::serde::encode_to_vec(&file, standard()).expect("tables encode");
        let sum = play::files::checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        play::files::write_atomically(path, &bytes).map_err(io)
    }

    /// Reads a table written by [`Table::save`].
    ///
    /// # Errors
    /// [`TableError`] if the file cannot be read, is not a table file,
    /// has another format version, or is cut short.
    pub fn load(path: &Path) -> Result<Table, TableError> {
        Table::load_noting(path).map(|(table, _)| table)
    }

    /// [`Table::load`], with a note for whoever loads it when the file
    /// is of version 1, which has no checksum: damage in it cannot be
    /// told from a table (the next save writes the current version, with
    /// one; opening a file never rewrites it).
    ///
    /// # Errors
    /// As [`Table::load`].
    pub fn load_noting(path: &Path) -> Result<(Table, Option<String>), TableError> {
        let shown = path.display().to_string();
        let bytes =
            play::files::read(path).map_err(|source| TableError::Io { path: shown.clone(), source })?;
        let format = |reason: String| TableError::Format { path: shown.clone(), reason };
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(format(
                "it does not start like one (an mnk table starts with \"mnk-tabl\")".to_owned(),
            ));
        }
        let (version, _): (u32, usize) = bincode::serde::decode_from_slice(&bytes[MAGIC.len()..], standard())
            .map_err(|error| format(format!("no format version: {error}")))?;
        let body = match version {
            1 => &bytes[..],
            FORMAT => {
                let (body, sum) = bytes.split_at(bytes.len().saturating_sub(8));
                if sum.len() != 8 || play::files::checksum(body).to_le_bytes() != sum {
                    return Err(format("damaged: its checksum does not match its contents".to_owned()));
                }
                body
            }
            _ => {
                return Err(format(format!(
                    "format version {version}; this build reads versions 1 and {FORMAT}"
                )));
            }
        };
        // A length that claims more than any table needs is refused before
        // it is allocated.
        let limited = standard().with_limit::<DECODE_LIMIT>();
        let (file, used): (TableFile, usize) = bincode::serde::decode_from_slice(body, limited)
            .map_err(|error| format(format!("truncated or damaged: {error}")))?;
        if used != body.len() {
            return Err(format(format!("{} bytes of trailing data", body.len() - used)));
        }
        let space = KeySpace::new(file.rules, file.symmetric)
            .ok_or_else(|| format(format!("{} is too big a board for a table", file.rules)))?;
        let note = (version == 1).then(|| {
            format!(
                "{shown} is a table of format 1, which has no checksum: damage in it would go unseen; \
                 the next save writes format {FORMAT}, which has one"
            )
        });
        Ok((file.body.into_table(space).map_err(format)?, note))
    }

    fn body(&self) -> Body {
        fn sorted<V: Copy>(map: &FxHashMap<u64, V>) -> Vec<(u64, V)> {
            let mut entries: Vec<(u64, V)> = map.iter().map(|(&k, &v)| (k, v)).collect();
            entries.sort_unstable_by_key(|&(key, _)| key);
            entries
        }
        match self {
            Table::Matrix(table) => {
                let area = table.space.rules().area();
                let side = |situations: &Situations| -> Vec<(u64, Vec<f64>)> {
                    sorted(&situations.rows)
                        .into_iter()
                        .map(|(key, row)| (key, situations.weights[row as usize * area..][..area].to_vec()))
                        .collect()
                };
                Body::Matrix { params: table.params, x: side(&table.tables[0]), o: side(&table.tables[1]) }
            }
            Table::Scores(table) => Body::Scores(sorted(&table.scores)),
            Table::Td(table) => Body::Td { params: table.params, values: sorted(&table.values) },
        }
    }
}

#[derive(Serialize, Deserialize)]
struct TableFile {
    magic: [u8; 8],
    format: u32,
    rules: Rules,
    symmetric: bool,
    body: Body,
}

#[derive(Serialize, Deserialize)]
enum Body {
    Matrix { params: MatrixParams, x: Vec<(u64, Vec<f64>)>, o: Vec<(u64, Vec<f64>)> },
    Scores(Vec<(u64, i64)>),
    Td { params: TdParams, values: Vec<(u64, (f32, u32))> },
}

/// Checks what a table without a checksum can be checked for: keys the
/// writer sorted, each one a position (base 3, one digit a cell, the two
/// sides' counts at most one apart) of the board, and finite numbers.
fn check_keys(space: &KeySpace, keys: impl Iterator<Item = u64>) -> Result<(), String> {
    let area = space.rules().area() as u32;
    let mut last = None;
    for key in keys {
        if last.is_some_and(|last| key <= last) {
            return Err("its keys are out of order or repeated".to_owned());
        }
        last = Some(key);
        let mut rest = key;
        let mut counts = [0_u32; 3];
        for _ in 0..area {
            counts[(rest % 3) as usize] += 1;
            rest /= 3;
        }
        if rest != 0 || counts[1].abs_diff(counts[2]) > 1 {
            return Err(format!("a key ({key}) is no position of {}", space.rules()));
        }
    }
    Ok(())
}

/// An error if any of `values` is not finite.
fn check_finite(what: &str, values: impl IntoIterator<Item = f64>) -> Result<(), String> {
    match values.into_iter().find(|value| !value.is_finite()) {
        Some(bad) => Err(format!("{what} holds {bad}")),
        None => Ok(()),
    }
}

impl Body {
    /// What can be checked without a checksum (format 1 has none).
    fn check(&self, space: &KeySpace) -> Result<(), String> {
        match self {
            Body::Matrix { params, x, o } => {
                check_finite("its parameters", [params.precision, params.step_learn, params.step_coef])?;
                for rows in [x, o] {
                    check_keys(space, rows.iter().map(|(key, _)| *key))?;
                    check_finite("a weight", rows.iter().flat_map(|(_, weights)| weights.iter().copied()))?;
                }
            }
            Body::Scores(entries) => check_keys(space, entries.iter().map(|(key, _)| *key))?,
            Body::Td { params, values } => {
                check_finite("its parameters", [params.alpha, params.gamma, params.epsilon])?;
                check_keys(space, values.iter().map(|(key, _)| *key))?;
                check_finite("a value", values.iter().map(|(_, (value, _))| f64::from(*value)))?;
            }
        }
        Ok(())
    }

    fn into_table(self, space: KeySpace) -> Result<Table, String> {
        self.check(&space)?;
        Ok(match self {
            Body::Matrix { params, x, o } => {
                let area = space.rules().area();
                let mut matrix = WeightMatrix::new(space, params);
                for (side, rows) in [x, o].into_iter().enumerate() {
                    let situations = &mut matrix.tables[side];
                    for (key, weights) in rows {
                        if weights.len() != area {
                            return Err(format!(
                                "a situation has {} weights for {area} cells",
                                weights.len()
                            ));
                        }
                        situations.rows.insert(key, (situations.weights.len() / area) as u32);
                        situations.weights.extend(weights);
                    }
                }
                Table::Matrix(matrix)
            }
            Body::Scores(entries) => {
                let mut table = ScoreTable::new(space);
                table.scores.extend(entries);
                Table::Scores(table)
            }
            Body::Td { params, values } => {
                let mut learner = TdLearner::new(space, params);
                learner.values.extend(values);
                Table::Td(learner)
            }
        })
    }
}
