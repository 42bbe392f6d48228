//! The threat family: a position scored from [`board::threats`] — how many
//! (empty cell, direction) pairs hold each line pattern for each side, and
//! how many empty cells hold each combined class — with one weight per
//! pattern and per class, for the side to move and for its opponent.
//!
//! A search that keeps [`Threats`] move by move gets the score in
//! constant time ([`Evaluator::evaluate_threats`]); from a bare position
//! the threats are computed first.

use std::path::Path;

use board::threats::{CellClass, Pattern, Threats};
use board::{Cell, Position};
use play::Evaluator;
use serde::{Deserialize, Serialize};

use crate::weights::{
    FORMAT, WeightsError, check_header, decode_sealed, encode_sealed, read_by_name, write_by_name,
};

/// The threat family's weights. The side to move's terms are apart from
/// its opponent's: the same open three is worth more to the side that
/// moves next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreatWeights {
    /// Per (empty cell, direction) pair of the side to move, by pattern
    /// (none, two, open two, three, open three, four, open four, five).
    pub own_patterns: [i32; Pattern::NUM],
    /// The same for the opponent (subtracted).
    pub opponent_patterns: [i32; Pattern::NUM],
    /// Per empty cell of the side to move, by combined class (none, two,
    /// double two, three, open three, four, double three, four-three,
    /// double four, open four, five).
    pub own_classes: [i32; CellClass::NUM],
    /// The same for the opponent (subtracted).
    pub opponent_classes: [i32; CellClass::NUM],
}

/// The file: the weights with the format version.
#[derive(Serialize, Deserialize)]
struct ThreatWeightsFile {
    format: u32,
    family: String,
    weights: ThreatWeights,
}

const FAMILY: &str = "threat";

/// The embedded defaults: hand-set at first (each pattern a little over
/// the one below it, a threat worth more to the side to move, double
/// threats rewarded), replaced only by weights an SPRT found stronger
/// (`cargo xtask train threat`; the file beside it says where they came
/// from).
const THREAT_5: &str = include_str!("../weights/threat-5.json");

impl Default for ThreatWeights {
    fn default() -> ThreatWeights {
        static DEFAULT: std::sync::OnceLock<ThreatWeights> = std::sync::OnceLock::new();
        DEFAULT
            .get_or_init(|| ThreatWeights::from_json(THREAT_5).expect("the embedded threat weights load"))
            .clone()
    }
}

/// The weights in [`ThreatWeights::to_vector`]'s order, and the features
/// of [`ThreatEvaluator::features`]: patterns then classes, own then
/// opponent.
pub const THREAT_FEATURES: usize = 2 * (Pattern::NUM + CellClass::NUM);

impl ThreatWeights {
    /// The hand-set weights the family started from.
    #[must_use]
    pub fn hand_set() -> ThreatWeights {
        ThreatWeights {
            own_patterns: [0, 2, 8, 10, 30, 40, 200, 1000],
            opponent_patterns: [0, 2, 7, 9, 25, 35, 150, 600],
            own_classes: [0, 0, 10, 0, 10, 10, 200, 400, 500, 300, 0],
            opponent_classes: [0, 0, 8, 0, 8, 8, 120, 250, 300, 150, 0],
        }
    }

    /// Every weight in one vector: own patterns, opponent patterns, own
    /// classes, opponent classes. The evaluation is the dot product of
    /// this vector with [`ThreatEvaluator::features`].
    #[must_use]
    pub fn to_vector(&self) -> [i32; THREAT_FEATURES] {
        let mut out = [0; THREAT_FEATURES];
        let parts =
            [&self.own_patterns[..], &self.opponent_patterns, &self.own_classes, &self.opponent_classes];
        for (slot, &weight) in out.iter_mut().zip(parts.into_iter().flatten()) {
            *slot = weight;
        }
        out
    }

    /// The weights of a vector in [`ThreatWeights::to_vector`]'s order.
    #[must_use]
    pub fn from_vector(vector: &[i32; THREAT_FEATURES]) -> ThreatWeights {
        let mut weights = ThreatWeights {
            own_patterns: [0; Pattern::NUM],
            opponent_patterns: [0; Pattern::NUM],
            own_classes: [0; CellClass::NUM],
            opponent_classes: [0; CellClass::NUM],
        };
        let parts = [
            &mut weights.own_patterns[..],
            &mut weights.opponent_patterns,
            &mut weights.own_classes,
            &mut weights.opponent_classes,
        ];
        for (slot, &weight) in parts.into_iter().flatten().zip(vector) {
            *slot = weight;
        }
        weights
    }

    /// The weights as JSON, with the family and format version.
    ///
    /// # Panics
    /// Never: integers always encode.
    #[must_use]
    pub fn to_json(&self) -> String {
        let file = ThreatWeightsFile { format: FORMAT, family: FAMILY.to_owned(), weights: self.clone() };
        serde_json::to_string_pretty(&file).expect("weights serialise")
    }

    /// Reads weights written by [`ThreatWeights::to_json`].
    ///
    /// # Errors
    /// [`WeightsError`] if the text is not such a file.
    pub fn from_json(text: &str) -> Result<ThreatWeights, WeightsError> {
        let file: ThreatWeightsFile =
            serde_json::from_str(text).map_err(|err| WeightsError::ThreatJson(err.to_string()))?;
        Self::checked(file)
    }

    /// The weights in bincode, with the family and format version.
    ///
    /// # Panics
    /// Never: integers always encode.
    #[must_use]
    pub fn to_bincode(&self) -> Vec<u8> {
        let file = ThreatWeightsFile { format: FORMAT, family: FAMILY.to_owned(), weights: self.clone() };
        encode_sealed(&file)
    }

    /// Reads weights written by [`ThreatWeights::to_bincode`]; trailing
    /// bytes are refused.
    ///
    /// # Errors
    /// [`WeightsError`] if the bytes are not such a file.
    pub fn from_bincode(bytes: &[u8]) -> Result<ThreatWeights, WeightsError> {
        Self::checked(decode_sealed(bytes)?)
    }

    fn checked(file: ThreatWeightsFile) -> Result<ThreatWeights, WeightsError> {
        check_header((file.format, &file.family), (FORMAT..=FORMAT, FAMILY), WeightsError::ThreatJson)?;
        Ok(file.weights)
    }

    /// Reads a weights file: bincode if the name ends in `.bin`, else JSON.
    ///
    /// # Errors
    /// [`WeightsError`] if it cannot be read or is not such a file.
    pub fn load(path: &Path) -> Result<ThreatWeights, WeightsError> {
        read_by_name(path, ThreatWeights::from_bincode, ThreatWeights::from_json)
    }

    /// Writes the weights to `path` (bincode if it ends in `.bin`, else
    /// JSON) through a temporary file.
    ///
    /// # Errors
    /// [`WeightsError::Io`] if it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        write_by_name(path, || self.to_bincode(), || self.to_json())
    }
}

/// Scores positions from their threats with [`ThreatWeights`]; it ranks
/// moves by what they make and block.
#[derive(Clone, Debug, Default)]
pub struct ThreatEvaluator {
    weights: ThreatWeights,
}

impl ThreatEvaluator {
    /// An evaluator with these weights.
    #[must_use]
    pub fn new(weights: ThreatWeights) -> ThreatEvaluator {
        ThreatEvaluator { weights }
    }

    /// Its weights.
    #[must_use]
    pub fn weights(&self) -> &ThreatWeights {
        &self.weights
    }

    /// What the evaluation of `pos` counts, for its side to move: the
    /// evaluation is the dot product of these with
    /// [`ThreatWeights::to_vector`] (opponent terms counted negative). For
    /// fitting the weights to games (`trainer tune`).
    #[must_use]
    pub fn features(pos: &Position, threats: &Threats) -> [i32; THREAT_FEATURES] {
        let me = pos.side_to_move();
        let opponent = me.opponent();
        let mut out = [0; THREAT_FEATURES];
        for pattern in &Pattern::ALL[1..] {
            let p = *pattern as usize;
            out[p] = threats.pattern_count(me, *pattern) as i32;
            out[Pattern::NUM + p] = -(threats.pattern_count(opponent, *pattern) as i32);
        }
        for class in &CellClass::ALL[1..] {
            let c = 2 * Pattern::NUM + *class as usize;
            out[c] = threats.class_count(me, *class) as i32;
            out[CellClass::NUM + c] = -(threats.class_count(opponent, *class) as i32);
        }
        out
    }
}

impl Evaluator for ThreatEvaluator {
    /// Computes the threats afresh, then [`Evaluator::evaluate_threats`];
    /// 0 where k has no threat table.
    fn evaluate(&self, pos: &Position) -> i32 {
        Threats::new(pos).map_or(0, |threats| self.evaluate_threats(pos, &threats))
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        out.clear();
        let Ok(threats) = Threats::new(pos) else { return };
        let me = pos.side_to_move();
        let w = &self.weights;
        for cell in pos.cells_near_marks() {
            let own = threats.patterns(me, cell);
            let theirs = threats.patterns(me.opponent(), cell);
            let score: i32 = own
                .iter()
                .zip(&theirs)
                .map(|(&mine, &other)| w.own_patterns[mine as usize] + w.opponent_patterns[other as usize])
                .sum();
            out.push((cell, score));
        }
        out.sort_by_key(|&(cell, score)| (std::cmp::Reverse(score), cell.index()));
    }

    #[inline]
    fn evaluate_threats(&self, pos: &Position, threats: &Threats) -> i32 {
        let me = pos.side_to_move();
        let opponent = me.opponent();
        let w = &self.weights;
        let mut score = 0;
        for pattern in &Pattern::ALL[1..] {
            let p = *pattern as usize;
            score += w.own_patterns[p] * threats.pattern_count(me, *pattern) as i32
                - w.opponent_patterns[p] * threats.pattern_count(opponent, *pattern) as i32;
        }
        for class in &CellClass::ALL[1..] {
            let c = *class as usize;
            score += w.own_classes[c] * threats.class_count(me, *class) as i32
                - w.opponent_classes[c] * threats.class_count(opponent, *class) as i32;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use board::Rules;

    #[test]
    fn weights_round_trip_and_refuse_other_files() {
        let weights = ThreatWeights::default();
        assert_eq!(ThreatWeights::from_json(&weights.to_json()).unwrap(), weights);
        assert_eq!(ThreatWeights::from_bincode(&weights.to_bincode()).unwrap(), weights);
        let mut long = weights.to_bincode();
        long.push(0);
        assert!(ThreatWeights::from_bincode(&long).unwrap_err().to_string().contains("after the weights"));
        assert!(ThreatWeights::from_json("[1, 2, 3]").is_err());
        let other = weights.to_json().replace("\"threat\"", "\"classic\"");
        assert!(ThreatWeights::from_json(&other).unwrap_err().to_string().contains("family"));
        let dir = std::env::temp_dir().join(format!("threat-weights-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for name in ["w.json", "w.bin"] {
            weights.save(&dir.join(name)).unwrap();
            assert_eq!(ThreatWeights::load(&dir.join(name)).unwrap(), weights);
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_evaluation_is_the_weights_times_the_features() {
        let mut weights = ThreatWeights::hand_set();
        assert_eq!(ThreatWeights::from_vector(&weights.to_vector()), weights);
        weights.own_classes[3] = 17;
        weights.opponent_patterns[2] = -5;
        let evaluator = ThreatEvaluator::new(weights.clone());
        let vector = weights.to_vector();
        for moves in
            [&["h8"][..], &["h8", "h9", "i9", "g7", "j10", "i8", "j8"], &["g8", "a1", "h8", "o15", "i8"]]
        {
            let pos = Position::from_moves(Rules::gomoku15(), &moves.join(" ")).unwrap();
            let threats = Threats::new(&pos).unwrap();
            let features = ThreatEvaluator::features(&pos, &threats);
            let dot: i32 = features.iter().zip(&vector).map(|(f, w)| f * w).sum();
            assert_eq!(dot, evaluator.evaluate(&pos), "{moves:?}");
        }
    }

    #[test]
    fn the_embedded_defaults_load() {
        // Hand-set until an SPRT accepts tuned weights.
        let embedded = ThreatWeights::default();
        assert!(embedded.own_patterns[7] > embedded.own_patterns[1], "{embedded:?}");
    }

    #[test]
    fn an_open_three_is_worth_more_to_its_owner_and_the_mover() {
        let evaluator = ThreatEvaluator::default();
        // X: g8 h8 i8 open; O: two scattered stones; O to move.
        let facing = Position::from_moves(Rules::gomoku15(), "g8 a1 h8 o15 i8").unwrap();
        assert!(evaluator.evaluate(&facing) < 0);
        // The same with X's third stone elsewhere: less bad for O.
        let quiet = Position::from_moves(Rules::gomoku15(), "g8 a1 h8 o15 b14").unwrap();
        assert!(evaluator.evaluate(&facing) < evaluator.evaluate(&quiet));
        let mut ranked = Vec::new();
        evaluator.rank_moves(&facing, &mut ranked);
        let best: Vec<String> =
            ranked[..2].iter().map(|(cell, _)| cell.name(facing.rules()).to_string()).collect();
        assert!(best.contains(&"f8".to_owned()) || best.contains(&"j8".to_owned()), "{ranked:?}");
    }
}
