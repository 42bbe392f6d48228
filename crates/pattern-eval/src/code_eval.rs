//! The code family: every empty cell's four fine line patterns for a
//! side (its *code*, see [`board::threats::Code`]) looked up in a table
//! of values, summed over the board, for the side to move and for its
//! opponent. The order of the four directions does not matter, so a
//! value belongs to a *shape* — the fine patterns as a multiset, such as
//! "strong three+two+two" — and there are 1,001 shapes a side (330
//! *plain shapes* of the eight tactical patterns).
//!
//! It generalises the threat family, whose pattern and class counts are
//! sums over cells of what each cell's code holds: [`CodeWeights::from_threat`]
//! turns threat weights into code weights that score every position the
//! same, and a fit to games ([`CodeEvaluator::features`]) can then give
//! each shape a value of its own. A search that keeps the evaluation's
//! [accumulator](Evaluator::accumulator) gets the score in constant
//! time: it sums the values as codes change. Beside the cells,
//! a value by [threat mask](crate::threat_mask) — which strong threats
//! each side holds — says what a sum of cells cannot (format 3).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use board::threats::{CODES, CellClass, Code, CodeValues, FinePattern, Pattern, Threats};
use board::{Cell, Position, RuleSet, Rules};
use play::Evaluator;
use serde::{Deserialize, Serialize};

use crate::move_policy::MovePolicy;
use crate::shapes::{FINE, PLAIN, SHAPES, shape, shapes, spread_plain};
use crate::threat_eval::ThreatWeights;
use crate::threat_mask::{MASKS, mask, mask_name};
use crate::weights::{WeightsError, check_header, decode_sealed, encode_sealed, read_by_name, write_by_name};

/// The largest value a shape or a mask may have. A position sums a value
/// a cell for each side, so on the largest board (32 × 32, two sides) the
/// sum stays below 2^24, the score the evaluations keep for a forced
/// block, and far below every win score; the fitted tables use about half.
pub const MAX_CODE_WEIGHT: i32 = 8_000;

/// The code family's weights: by shape, what a cell of that shape is
/// worth to its side when it moves next (`to_move`) and when the
/// opponent does (`waiting`, counted against it); and by threat mask,
/// what the strong threats the two sides hold are worth together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeWeights {
    /// By shape ([`shape_name`](crate::shape_name) order), for the side to move.
    pub to_move: Vec<i32>,
    /// By shape, for the side that waits.
    pub waiting: Vec<i32>,
    /// By threat mask ([`mask_name`] order), for the side to move: all
    /// zero in weights fitted before masks.
    pub masks: Vec<i32>,
}

/// The file: each table as a map from shape name to value, with the
/// format version and the family, so that it reads by itself. Format 3
/// adds the masks (by mask name, those worth 0 left out); format 2 names
/// shapes of fine patterns; format 1, plain shapes, each worth the same
/// in every fine shape it splits into.
#[derive(Serialize, Deserialize)]
struct CodeWeightsFile {
    format: u32,
    family: String,
    #[serde(deserialize_with = "unique_keys")]
    to_move: BTreeMap<String, i32>,
    #[serde(deserialize_with = "unique_keys")]
    waiting: BTreeMap<String, i32>,
    #[serde(default, deserialize_with = "unique_keys")]
    masks: BTreeMap<String, i32>,
}

/// A map of names to weights in which no name comes twice: JSON allows
/// it, and the last would silently win.
fn unique_keys<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<BTreeMap<String, i32>, D::Error> {
    struct Unique;
    impl<'de> serde::de::Visitor<'de> for Unique {
        type Value = BTreeMap<String, i32>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a map of names to whole numbers")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((name, value)) = map.next_entry::<String, i32>()? {
                if out.contains_key(&name) {
                    return Err(serde::de::Error::custom(format!("{name:?} is given twice")));
                }
                out.insert(name, value);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_map(Unique)
}

/// A file of formats 1 and 2 as bincode wrote it: without masks (bincode
/// reads fields by position, so the old layout needs its own type).
#[derive(Serialize, Deserialize)]
struct CodeWeightsFileWithoutMasks {
    format: u32,
    family: String,
    to_move: BTreeMap<String, i32>,
    waiting: BTreeMap<String, i32>,
}

const FAMILY: &str = "codes";

/// The format version code weights are written in.
const CODE_FORMAT: u32 = 3;

/// The embedded defaults: weights fitted to self-play games, starting
/// from the threat family's translated ([`CodeWeights::from_threat`]),
/// and accepted by an SPRT against the threat family (`cargo xtask train
/// codes`; the provenance file beside them says how they were made).
const CODES_5: Option<&str> = Some(include_str!("../weights/codes-5.json"));

/// The embedded defaults for renju, made as [`CODES_5`] were from renju
/// self-play and accepted by an SPRT under renju against them.
const CODES_5_RENJU: Option<&str> = Some(include_str!("../weights/codes-5-renju.json"));

impl Default for CodeWeights {
    fn default() -> CodeWeights {
        static DEFAULT: OnceLock<CodeWeights> = OnceLock::new();
        DEFAULT
            .get_or_init(|| match CODES_5 {
                Some(text) => CodeWeights::from_json(text).expect("the embedded code weights load"),
                None => CodeWeights::from_threat(&ThreatWeights::default()),
            })
            .clone()
    }
}

impl CodeWeights {
    /// The embedded weights for `rules`: renju's own where it has them,
    /// else the [`Default`] ones (fitted to freestyle gomoku).
    ///
    /// # Panics
    /// Never: the embedded files load (a unit test reads each).
    #[must_use]
    pub fn default_for(rules: &Rules) -> CodeWeights {
        static RENJU: OnceLock<Option<CodeWeights>> = OnceLock::new();
        let renju = || {
            RENJU.get_or_init(|| {
                CODES_5_RENJU
                    .map(|text| CodeWeights::from_json(text).expect("the embedded renju weights load"))
            })
        };
        match rules.rule_set() {
            RuleSet::Renju => renju().clone().unwrap_or_default(),
            _ => CodeWeights::default(),
        }
    }

    /// The code weights that score every position as `threat` does: a
    /// cell's value is what its patterns and its class add to the threat
    /// family's counts.
    #[must_use]
    pub fn from_threat(threat: &ThreatWeights) -> CodeWeights {
        let value = |patterns: &[i32], classes: &[i32], shape: [Pattern; 4]| -> i32 {
            let lines: i32 =
                shape.iter().filter(|&&p| p != Pattern::None).map(|&p| patterns[p as usize]).sum();
            let class = CellClass::combine(shape);
            let cell = if class == CellClass::None { 0 } else { classes[class as usize] };
            lines + cell
        };
        let table = |patterns: &[i32], classes: &[i32]| -> Vec<i32> {
            shapes().iter().map(|&shape| value(patterns, classes, shape.map(FinePattern::pattern))).collect()
        };
        CodeWeights {
            to_move: table(&threat.own_patterns, &threat.own_classes),
            waiting: table(&threat.opponent_patterns, &threat.opponent_classes),
            masks: vec![0; MASKS],
        }
    }

    /// How many weights [`CodeWeights::to_vector`] gives.
    pub const LEN: usize = 2 * SHAPES + MASKS;

    /// Every weight in one vector: the side to move's shapes, the waiting
    /// side's, then the masks. The evaluation is its dot product with
    /// [`CodeEvaluator::features`].
    #[must_use]
    pub fn to_vector(&self) -> Vec<i32> {
        self.to_move.iter().chain(&self.waiting).chain(&self.masks).copied().collect()
    }

    /// The weights of a vector in [`CodeWeights::to_vector`]'s order (or
    /// without its masks, which are then worth 0).
    ///
    /// # Errors
    /// [`WeightsError`] if it is not two tables of [`SHAPES`] values each
    /// (and [`MASKS`] more) within ±[`MAX_CODE_WEIGHT`], the empty shape worth 0.
    pub fn from_vector(vector: &[i32]) -> Result<CodeWeights, WeightsError> {
        let masks = match vector.len() {
            Self::LEN => vector[2 * SHAPES..].to_vec(),
            len if len == 2 * SHAPES => vec![0; MASKS],
            len => {
                return Err(WeightsError::CodeJson(format!(
                    "{len} weights, not {} (or {} without masks)",
                    Self::LEN,
                    2 * SHAPES
                )));
            }
        };
        let weights = CodeWeights {
            to_move: vector[..SHAPES].to_vec(),
            waiting: vector[SHAPES..2 * SHAPES].to_vec(),
            masks,
        };
        weights.check()?;
        Ok(weights)
    }

    /// Whether any mask is worth something (weights fitted before masks
    /// are not, and their evaluation skips them).
    #[must_use]
    pub fn has_masks(&self) -> bool {
        self.masks.iter().any(|&value| value != 0)
    }

    fn check(&self) -> Result<(), WeightsError> {
        if self.masks.len() != MASKS {
            return Err(WeightsError::CodeJson(format!("{} masks, not {MASKS}", self.masks.len())));
        }
        if let Some((index, &value)) =
            self.masks.iter().enumerate().find(|(_, value)| value.abs() > MAX_CODE_WEIGHT)
        {
            return Err(WeightsError::OutOfRange {
                index: 2 * SHAPES + index,
                value: i64::from(value),
                bound: MAX_CODE_WEIGHT,
            });
        }
        for (name, table) in [("to_move", &self.to_move), ("waiting", &self.waiting)] {
            if table.len() != SHAPES {
                return Err(WeightsError::CodeJson(format!(
                    "{name} has {} shapes, not {SHAPES}",
                    table.len()
                )));
            }
            if table[0] != 0 {
                return Err(WeightsError::CodeJson(format!(
                    "{name} gives the empty shape {}, not 0",
                    table[0]
                )));
            }
            if let Some((index, &value)) =
                table.iter().enumerate().find(|(_, value)| value.abs() > MAX_CODE_WEIGHT)
            {
                return Err(WeightsError::OutOfRange {
                    index,
                    value: i64::from(value),
                    bound: MAX_CODE_WEIGHT,
                });
            }
        }
        Ok(())
    }

    /// The tables by code, as a search sums them.
    fn values(&self) -> CodeValues {
        let expand = |table: &[i32]| (0..CODES).map(|code| table[shape(code as Code)]).collect();
        CodeValues::new(expand(&self.to_move), expand(&self.waiting)).expect("checked weights make values")
    }

    fn file(&self) -> CodeWeightsFile {
        CodeWeightsFile {
            format: CODE_FORMAT,
            family: FAMILY.to_owned(),
            to_move: FINE.names_of_table(&self.to_move),
            waiting: FINE.names_of_table(&self.waiting),
            masks: (0..MASKS)
                .filter(|&m| self.masks[m] != 0)
                .map(|m| (mask_name(m), self.masks[m]))
                .collect(),
        }
    }

    fn from_file(file: &CodeWeightsFile) -> Result<CodeWeights, WeightsError> {
        check_header((file.format, &file.family), (1..=CODE_FORMAT, FAMILY), WeightsError::CodeJson)?;
        let table = |name: &str, named: &BTreeMap<String, i32>| match file.format {
            1 => PLAIN.table_from_names(name, named).map(|table| spread_plain(&table)),
            _ => FINE.table_from_names(name, named),
        };
        if file.format < CODE_FORMAT && !file.masks.is_empty() {
            return Err(WeightsError::CodeJson(format!(
                "format {} has no masks, but the file gives some",
                file.format
            )));
        }
        let mut masks = vec![0; MASKS];
        if !file.masks.is_empty() {
            let by_name: BTreeMap<String, usize> = (0..MASKS).map(|m| (mask_name(m), m)).collect();
            for (name, &value) in &file.masks {
                let index = by_name
                    .get(name)
                    .ok_or_else(|| WeightsError::CodeJson(format!("masks names no mask {name:?}")))?;
                masks[*index] = value;
            }
        }
        let weights = CodeWeights {
            to_move: table("to_move", &file.to_move)?,
            waiting: table("waiting", &file.waiting)?,
            masks,
        };
        weights.check()?;
        Ok(weights)
    }

    /// The weights as JSON: each table a map from shape name to value.
    ///
    /// # Panics
    /// Never: maps of integers always encode.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.file()).expect("weights serialise")
    }

    /// Reads weights written by [`CodeWeights::to_json`].
    ///
    /// # Errors
    /// [`WeightsError`] if the text is not such a file.
    pub fn from_json(text: &str) -> Result<CodeWeights, WeightsError> {
        let file: CodeWeightsFile =
            serde_json::from_str(text).map_err(|err| WeightsError::CodeJson(err.to_string()))?;
        CodeWeights::from_file(&file)
    }

    /// The weights in bincode, with the family and format version.
    #[must_use]
    pub fn to_bincode(&self) -> Vec<u8> {
        encode_sealed(&self.file())
    }

    /// Reads weights written by [`CodeWeights::to_bincode`].
    ///
    /// # Errors
    /// [`WeightsError`] if the bytes are not such a file.
    pub fn from_bincode(bytes: &[u8]) -> Result<CodeWeights, WeightsError> {
        // A file of format 3 read as the old layout leaves its masks over,
        // which the reader refuses; so the old layout is tried first.
        match decode_sealed::<CodeWeightsFileWithoutMasks>(bytes) {
            Ok(old) if old.format < CODE_FORMAT => CodeWeights::from_file(&CodeWeightsFile {
                format: old.format,
                family: old.family,
                to_move: old.to_move,
                waiting: old.waiting,
                masks: BTreeMap::new(),
            }),
            _ => CodeWeights::from_file(&decode_sealed(bytes)?),
        }
    }

    /// Reads a weights file: bincode if the name ends in `.bin`, else JSON.
    ///
    /// # Errors
    /// [`WeightsError`] if it cannot be read or is not such a file.
    pub fn load(path: &Path) -> Result<CodeWeights, WeightsError> {
        read_by_name(path, CodeWeights::from_bincode, CodeWeights::from_json)
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

/// Scores positions as the sum of their cells' shape values
/// ([`CodeWeights`]); a search keeps the sum move by move in the
/// accumulator it gets from [`Evaluator::accumulator`].
#[derive(Clone, Debug)]
pub struct CodeEvaluator {
    weights: CodeWeights,
    values: Arc<CodeValues>,
    /// The masks' values, where any is worth something.
    masks: Option<Arc<[i32]>>,
    /// A learned move policy by code (see [`MovePolicy`]), else the
    /// hand-set move score.
    moves: Option<Arc<Vec<(i32, i32)>>>,
}

impl Default for CodeEvaluator {
    fn default() -> CodeEvaluator {
        CodeEvaluator::new(CodeWeights::default())
    }
}

impl CodeEvaluator {
    /// An evaluator with these weights.
    #[must_use]
    pub fn new(weights: CodeWeights) -> CodeEvaluator {
        let values = Arc::new(weights.values());
        let masks = weights.has_masks().then(|| Arc::from(weights.masks.as_slice()));
        CodeEvaluator { weights, values, masks, moves: None }
    }

    /// The same evaluator scoring moves by `policy` instead of the
    /// hand-set move score.
    #[must_use]
    pub fn with_policy(self, policy: &MovePolicy) -> CodeEvaluator {
        CodeEvaluator { moves: Some(Arc::new(policy.by_code())), ..self }
    }

    /// Its weights.
    #[must_use]
    pub fn weights(&self) -> &CodeWeights {
        &self.weights
    }

    /// What the evaluation of `pos` counts, for its side to move, as
    /// (index in [`CodeWeights::to_vector`], count) pairs, indices
    /// ascending: the evaluation is the sum of count × weight (the
    /// waiting side's counts negative, the position's mask counted once).
    /// For fitting the weights to games.
    #[must_use]
    pub fn features(pos: &Position, threats: &Threats) -> Vec<(u16, i16)> {
        let me = pos.side_to_move();
        let mut counts = vec![0_i16; CodeWeights::LEN];
        counts[2 * SHAPES + mask(threats, me)] = 1;
        for cell in pos.empty_cells() {
            counts[shape(threats.code(me, cell))] += 1;
            counts[SHAPES + shape(threats.code(me.opponent(), cell))] -= 1;
        }
        counts[0] = 0;
        counts[SHAPES] = 0;
        counts
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count != 0)
            .map(|(i, &count)| (i as u16, count))
            .collect()
    }

    /// The values a cell's code is worth, as a search's kept sums add them.
    #[inline]
    pub(crate) fn values(&self) -> &Arc<CodeValues> {
        &self.values
    }

    /// The score for `me`, the side to move, from the kept sums of each
    /// side's cell values (see `kept::CodeLevel`): a read, no pass over
    /// the cells.
    #[inline]
    pub(crate) fn score_of_sums(&self, sums: &crate::kept::Sums, me: board::Side, threats: &Threats) -> i32 {
        sums[me.index()][0] - sums[me.opponent().index()][1] + self.mask_value(threats, me)
    }

    /// The score by a pass over the empty cells; as the kept sums count
    /// them, renju's black's forbidden shapes are worth nothing.
    fn score_by_cells(&self, pos: &Position, threats: &Threats) -> i32 {
        let me = pos.side_to_move();
        let values = |side: board::Side| {
            if pos.rules().forbids(side) { self.values.for_renju_black() } else { Arc::clone(&self.values) }
        };
        let (mine, theirs) = (values(me), values(me.opponent()));
        let cells: i32 = pos
            .empty_cells()
            .iter()
            .map(|cell| {
                mine.to_move(threats.code(me, cell)) - theirs.waiting(threats.code(me.opponent(), cell))
            })
            .sum();
        cells + self.mask_value(threats, pos.side_to_move())
    }

    /// The value of the position's threat mask for `me`, the side to move.
    #[inline]
    fn mask_value(&self, threats: &Threats, me: board::Side) -> i32 {
        self.masks.as_ref().map_or(0, |masks| masks[mask(threats, me)])
    }
}

impl Evaluator for CodeEvaluator {
    /// Never: it reads the codes, not the pattern counts.
    #[inline]
    fn reads_pattern_counts(&self) -> bool {
        false
    }

    /// Computes the threats afresh, then [`Evaluator::evaluate_threats`];
    /// 0 where k has no threat table.
    fn evaluate(&self, pos: &Position) -> i32 {
        Threats::new(pos).map_or(0, |threats| self.evaluate_threats(pos, &threats))
    }

    /// The cells near the marks, by what they are worth to the side to
    /// move now and what they are worth to the opponent.
    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        out.clear();
        let Ok(threats) = Threats::new(pos) else { return };
        let me = pos.side_to_move();
        for cell in pos.cells_near_marks() {
            let score = self.values.to_move(threats.code(me, cell))
                + self.values.waiting(threats.code(me.opponent(), cell));
            out.push((cell, score));
        }
        out.sort_by_key(|&(cell, score)| (std::cmp::Reverse(score), cell.index()));
    }

    /// By the move policy, if it has one: two lookups by the cell's codes.
    #[inline]
    fn score_move(&self, threats: &Threats, side: board::Side, cell: Cell) -> i32 {
        match &self.moves {
            Some(moves) => {
                moves[usize::from(threats.code(side, cell))].0
                    + moves[usize::from(threats.code(side.opponent(), cell))].1
            }
            None => threats.move_score(side, cell),
        }
    }

    /// A pass over the empty cells; a search that keeps the sums reads
    /// them instead (see [`Evaluator::accumulator`]).
    #[inline]
    fn evaluate_threats(&self, pos: &Position, threats: &Threats) -> i32 {
        self.score_by_cells(pos, threats)
    }

    /// The sums of the cells' values, kept move by move.
    fn accumulator(&self, pos: &Position, threats: &Threats) -> Option<Box<dyn play::Accumulator>> {
        Some(Box::new(crate::kept::CodeStack::new(self.clone(), pos, threats)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ThreatEvaluator;
    use crate::shapes::{PLAIN_SHAPES, plain_shape};
    use board::Rules;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn the_embedded_weights_have_masks() {
        // Renju's since round 2, fitted to the sparring partner's values.
        assert!(CodeWeights::default().has_masks());
        assert!(CodeWeights::default_for(&Rules::renju()).has_masks());
    }

    #[test]
    fn renju_has_weights_of_its_own() {
        assert_eq!(CodeWeights::default_for(&Rules::gomoku15()), CodeWeights::default());
        assert_eq!(CodeWeights::default_for(&Rules::caro()), CodeWeights::default());
        let renju = CodeWeights::default_for(&Rules::renju());
        assert_ne!(renju, CodeWeights::default());
        assert_eq!(CodeWeights::from_json(&renju.to_json()).unwrap(), renju);
    }

    #[test]
    fn format_1_files_give_each_fine_shape_its_plain_shape_value() {
        let plain: Vec<i32> = (0..PLAIN_SHAPES).map(|index| index as i32 * 3).collect();
        let file = CodeWeightsFile {
            format: 1,
            family: FAMILY.to_owned(),
            to_move: PLAIN.names_of_table(&plain),
            waiting: PLAIN.names_of_table(&plain),
            masks: BTreeMap::new(),
        };
        let weights = CodeWeights::from_json(&serde_json::to_string(&file).unwrap()).unwrap();
        for code in [0, 1, 0x0017, 0x8721, 0xa000, 0x3456] {
            assert_eq!(weights.to_move[shape(code)], plain[plain_shape(code)], "code {code:#x}");
        }
        // Written again, they are format 3 and read back the same.
        assert!(weights.to_json().contains("\"format\": 3"));
        assert_eq!(CodeWeights::from_json(&weights.to_json()).unwrap(), weights);
        let future = weights.to_json().replace("\"format\": 3", "\"format\": 4");
        assert!(
            CodeWeights::from_json(&future).unwrap_err().to_string().contains("format 4 is not supported")
        );
    }

    #[test]
    fn translated_threat_weights_score_every_position_alike() {
        let threat = ThreatEvaluator::default();
        let codes = CodeEvaluator::new(CodeWeights::from_threat(threat.weights()));
        let rules = Rules::gomoku15();
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..40 {
            let mut pos = Position::new(rules);
            let mut kept = Threats::new(&pos).unwrap();
            let mut sums = codes.accumulator(&pos, &kept).unwrap();
            for _ in 0..rng.random_range(1..50) {
                let moves: Vec<Cell> =
                    pos.legal_moves().filter(|c| c.x().abs_diff(7) < 4 && c.y().abs_diff(7) < 4).collect();
                let Some(&cell) = moves.get(rng.random_range(0..moves.len().max(1))) else { break };
                if pos.play(cell).is_err() || pos.is_over() {
                    break;
                }
                kept.play(&pos, cell);
                sums.push(&pos, &kept, cell);
                let fresh = Threats::new(&pos).unwrap();
                let expected = threat.evaluate_threats(&pos, &fresh);
                assert_eq!(sums.evaluate(&pos, &kept, (-i32::MAX, i32::MAX)), expected, "kept sums\n{pos}");
                assert_eq!(codes.evaluate_threats(&pos, &fresh), expected, "by cells\n{pos}");
                let features = CodeEvaluator::features(&pos, &fresh);
                let vector = codes.weights().to_vector();
                let dot: i32 =
                    features.iter().map(|&(i, count)| vector[usize::from(i)] * i32::from(count)).sum();
                assert_eq!(dot, expected);
            }
        }
    }

    #[test]
    fn masks_add_their_value_kept_or_by_cells_and_round_trip_in_format_3() {
        // The embedded shapes without masks, then one mask given a value.
        let unmasked = CodeWeights { masks: vec![0; MASKS], ..CodeWeights::default() };
        assert!(!unmasked.has_masks());
        let mut weights = unmasked.clone();
        // The waiting side's open three (an open four and a four to make)
        // is worth −500 to the mover.
        let three_waiting = 1 << 1 | 1 << 3;
        weights.masks[three_waiting] = -500;
        let plain = CodeEvaluator::new(unmasked);
        let masked = CodeEvaluator::new(weights.clone());
        let rules = Rules::gomoku15();
        let pos = Position::from_moves(rules, "g8 a1 h8 o15 i8").unwrap();
        let fresh = Threats::new(&pos).unwrap();
        assert_eq!(crate::threat_mask::mask(&fresh, pos.side_to_move()), three_waiting);
        let mut kept = masked.accumulator(&pos, &fresh).unwrap();
        assert_eq!(kept.evaluate(&pos, &fresh, (-i32::MAX, i32::MAX)), plain.evaluate(&pos) - 500);
        assert_eq!(masked.evaluate_threats(&pos, &fresh), plain.evaluate(&pos) - 500);
        // The features count the mask once, so the fit sees it.
        let features = CodeEvaluator::features(&pos, &fresh);
        let vector = weights.to_vector();
        let dot: i32 = features.iter().map(|&(i, count)| vector[usize::from(i)] * i32::from(count)).sum();
        assert_eq!(dot, masked.evaluate(&pos));
        // Format 3 keeps the masks, in JSON and bincode, by name.
        assert!(weights.to_json().contains("\"mover -, waiting open four+four\": -500"));
        assert_eq!(CodeWeights::from_json(&weights.to_json()).unwrap(), weights);
        assert_eq!(CodeWeights::from_bincode(&weights.to_bincode()).unwrap(), weights);
        assert_eq!(CodeWeights::from_vector(&weights.to_vector()).unwrap(), weights);
        let wrong = weights.to_json().replace("mover -, waiting open four+four", "mover -, waiting six");
        assert!(CodeWeights::from_json(&wrong).unwrap_err().to_string().contains("no mask"));
        // A mask named twice is refused (JSON would let the last win).
        let twice = weights.to_json().replacen(
            "\"mover -, waiting open four+four\": -500",
            "\"mover -, waiting open four+four\": -500, \"mover -, waiting open four+four\": 7",
            1,
        );
        let error = CodeWeights::from_json(&twice).unwrap_err().to_string();
        assert!(error.contains("given twice"), "{error}");
        // A weight beyond the bound says the family's bound.
        let mut vector = weights.to_vector();
        vector[1] = MAX_CODE_WEIGHT + 1;
        let error = CodeWeights::from_vector(&vector).unwrap_err().to_string();
        assert!(error.ends_with(&format!("outside -{MAX_CODE_WEIGHT}..={MAX_CODE_WEIGHT}")), "{error}");
    }

    #[test]
    fn format_2_files_load_in_json_and_bincode_with_no_masks() {
        let weights = CodeWeights { masks: vec![0; MASKS], ..CodeWeights::default() };
        let file = CodeWeightsFileWithoutMasks {
            format: 2,
            family: FAMILY.to_owned(),
            to_move: FINE.names_of_table(&weights.to_move),
            waiting: FINE.names_of_table(&weights.waiting),
        };
        let json = serde_json::to_string(&file).unwrap();
        assert_eq!(CodeWeights::from_json(&json).unwrap(), weights);
        let bytes = crate::weights::encode_sealed(&file);
        assert_eq!(CodeWeights::from_bincode(&bytes).unwrap(), weights);
        let with_masks = json.replacen('{', "{\"masks\": {\"mover -, waiting -\": 3},", 1);
        assert!(CodeWeights::from_json(&with_masks).unwrap_err().to_string().contains("has no masks"));
    }

    #[test]
    fn weights_round_trip_and_refuse_other_files() {
        let weights = CodeWeights::default();
        assert_eq!(CodeWeights::from_json(&weights.to_json()).unwrap(), weights);
        assert_eq!(CodeWeights::from_bincode(&weights.to_bincode()).unwrap(), weights);
        assert_eq!(CodeWeights::from_vector(&weights.to_vector()).unwrap(), weights);
        assert!(weights.to_json().contains("\"open three+two\""));
        let renamed = weights.to_json().replace("\"open three+two\"", "\"open seven\"");
        assert!(
            CodeWeights::from_json(&renamed).unwrap_err().to_string().contains("no shape \"open seven\"")
        );
        let other = weights.to_json().replace("\"codes\"", "\"threat\"");
        assert!(CodeWeights::from_json(&other).unwrap_err().to_string().contains("family"));
        assert!(CodeWeights::from_vector(&[1; 3]).is_err());
        let mut huge = weights.to_vector();
        huge[4] = MAX_CODE_WEIGHT + 1;
        assert!(CodeWeights::from_vector(&huge).is_err());
        let dir = std::env::temp_dir().join(format!("code-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["w.json", "w.bin"] {
            weights.save(&dir.join(name)).unwrap();
            assert_eq!(CodeWeights::load(&dir.join(name)).unwrap(), weights);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
