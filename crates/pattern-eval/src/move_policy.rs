//! A move policy by cell shape: how promising a move is, as what it
//! makes for the side that plays it (by its shape there) plus what it
//! takes from the opponent (by the opponent's shape there). The search
//! orders, reduces and prunes moves by that one number
//! ([`play::Evaluator::score_move`]); [`MovePolicy::hand_set`] is the
//! hand-set score, and `trainer policy` fits one to the moves a strong
//! engine chose.
//!
//! A move that makes or blocks any pattern scores at least 1 and one
//! that makes or blocks nothing 0, as the search's move filter expects.

use std::collections::BTreeMap;
use std::path::Path;

use board::threats::{CODES, Code, code_of, move_parts};
use serde::{Deserialize, Serialize};

use crate::shapes::{PLAIN, PLAIN_SHAPES, plain_shape, plain_shape_name, plain_shapes};
use crate::weights::{
    FORMAT, MAX_WEIGHT, WeightsError, check_header, is_bincode, read_by_name, write_atomically,
};

/// By plain shape (a cell's patterns as a multiset): a move's worth for the side that plays there (`made`, by
/// its shape) and against the side whose shape it takes (`taken`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePolicy {
    /// By plain shape ([`plain_shape_name`] order), for the side that moves.
    pub made: Vec<i32>,
    /// By shape, for the side it is played against.
    pub taken: Vec<i32>,
}

/// The file: each table as a map from shape name to value.
#[derive(Serialize, Deserialize)]
struct MovePolicyFile {
    format: u32,
    family: String,
    made: BTreeMap<String, i32>,
    taken: BTreeMap<String, i32>,
}

const FAMILY: &str = "moves";

impl MovePolicy {
    /// The hand-set move score ([`board::threats::Threats::move_score`]) by
    /// shape: it depends on a cell's patterns, not their directions.
    #[must_use]
    pub fn hand_set() -> MovePolicy {
        let parts: Vec<(i32, i32)> =
            plain_shapes().iter().map(|&patterns| move_parts(code_of(patterns))).collect();
        MovePolicy {
            made: parts.iter().map(|part| part.0).collect(),
            taken: parts.iter().map(|part| part.1).collect(),
        }
    }

    /// By code: both parts, for two lookups a move.
    #[must_use]
    pub fn by_code(&self) -> Vec<(i32, i32)> {
        (0..CODES)
            .map(|code| {
                let index = plain_shape(code as Code);
                (self.made[index], self.taken[index])
            })
            .collect()
    }

    /// Checks the tables: one value a shape, 0 for the empty shape, 1 to
    /// [`MAX_WEIGHT`] for every other.
    ///
    /// # Errors
    /// [`WeightsError`] naming what is wrong.
    pub fn check(&self) -> Result<(), WeightsError> {
        for (name, table) in [("made", &self.made), ("taken", &self.taken)] {
            if table.len() != PLAIN_SHAPES {
                return Err(WeightsError::CodeJson(format!(
                    "{name} has {} values, not {PLAIN_SHAPES}",
                    table.len()
                )));
            }
            if table[0] != 0 {
                return Err(WeightsError::CodeJson(format!("{name}: the empty shape must be 0")));
            }
            if let Some(index) = (1..PLAIN_SHAPES).find(|&index| !(1..=MAX_WEIGHT).contains(&table[index])) {
                return Err(WeightsError::CodeJson(format!(
                    "{name}: shape {} is {}, not from 1 to {MAX_WEIGHT}",
                    plain_shape_name(index),
                    table[index]
                )));
            }
        }
        Ok(())
    }

    /// The policy as JSON: each table a map from shape name to value.
    ///
    /// # Panics
    /// Never: maps of integers always encode.
    #[must_use]
    pub fn to_json(&self) -> String {
        let file = MovePolicyFile {
            format: FORMAT,
            family: FAMILY.to_owned(),
            made: PLAIN.names_of_table(&self.made),
            taken: PLAIN.names_of_table(&self.taken),
        };
        serde_json::to_string_pretty(&file).expect("a policy serialises")
    }

    /// Reads a policy written by [`MovePolicy::to_json`].
    ///
    /// # Errors
    /// [`WeightsError`] if the text is not such a file.
    pub fn from_json(text: &str) -> Result<MovePolicy, WeightsError> {
        let file: MovePolicyFile =
            serde_json::from_str(text).map_err(|err| WeightsError::CodeJson(err.to_string()))?;
        check_header((file.format, &file.family), (FORMAT..=FORMAT, FAMILY), WeightsError::CodeJson)?;
        let policy = MovePolicy {
            made: PLAIN.table_from_names("made", &file.made)?,
            taken: PLAIN.table_from_names("taken", &file.taken)?,
        };
        policy.check()?;
        Ok(policy)
    }

    /// Reads a policy file (JSON).
    ///
    /// # Errors
    /// [`WeightsError`] if it cannot be read or is not such a file.
    pub fn load(path: &Path) -> Result<MovePolicy, WeightsError> {
        let not_bincode =
            |_: &[u8]| Err(WeightsError::Bincode("move policies are JSON files: name it .json".to_owned()));
        read_by_name(path, not_bincode, MovePolicy::from_json)
    }

    /// Writes the policy to `path` as JSON through a temporary file.
    ///
    /// # Errors
    /// [`WeightsError::Io`] if it cannot be written, and an error for a
    /// name ending in `.bin` (a policy is JSON only).
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        if is_bincode(path) {
            return Err(WeightsError::Bincode("move policies are JSON files: name it .json".to_owned()));
        }
        write_atomically(path, (self.to_json() + "\n").as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CodeEvaluator;
    use board::{Position, Rules};
    use play::Evaluator;

    #[test]
    fn the_hand_set_policy_scores_every_move_as_the_hand_set_score() {
        let policy = MovePolicy::hand_set();
        policy.check().unwrap();
        let evaluator = CodeEvaluator::default().with_policy(&policy);
        let rules = Rules::gomoku15();
        let pos = Position::from_moves(rules, "h8 i9 i8 g8 j7 h9 g9 j10 h7").unwrap();
        let threats = board::threats::Threats::new(&pos).unwrap();
        for side in [board::Side::X, board::Side::O] {
            for cell in pos.empty_cells() {
                assert_eq!(evaluator.score_move(&threats, side, cell), threats.move_score(side, cell));
            }
        }
    }

    #[test]
    fn files_read_back_and_bad_ones_are_clear_errors() {
        let policy = MovePolicy::hand_set();
        assert_eq!(MovePolicy::from_json(&policy.to_json()).unwrap(), policy);
        let mut zero = policy.clone();
        zero.made[5] = 0;
        assert!(MovePolicy::from_json(&zero.to_json()).unwrap_err().to_string().contains("not from 1"));
        let other = policy.to_json().replace("\"moves\"", "\"codes\"");
        assert!(MovePolicy::from_json(&other).unwrap_err().to_string().contains("family"));
        assert!(MovePolicy::from_json("[1, 2]").is_err());
        let bin = std::env::temp_dir().join(format!("mnk-policy-{}.bin", std::process::id()));
        assert!(policy.save(&bin).unwrap_err().to_string().contains("JSON"));
        assert!(!bin.exists());
    }
}
