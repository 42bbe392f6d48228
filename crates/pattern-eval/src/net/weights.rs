//! The network's weights, as the engine uses them (whole numbers), and
//! their file: a header saying the format, the family, the shape and how
//! the weights were made, then the numbers, sealed by a checksum.

use std::path::Path;
use std::sync::OnceLock;

use board::{RuleSet, Rules, Side};
use serde::{Deserialize, Serialize};

use crate::weights::{
    WeightsError, check_format, check_header, decode_sealed_within, encode_sealed, write_atomically,
};

/// Rows of a table: a direction's two fine patterns, the viewer's and
/// the other side's, four bits each.
pub const ROWS: usize = 256;
/// Values a row holds: the width of a cell's features.
pub const CHANNELS: usize = 32;
/// Units of the dense head's hidden layer.
pub const HIDDEN: usize = 32;
/// A table value (and a cell's sum) of 1.0, where the cell's clipped
/// features saturate.
pub const CELL_ONE: i32 = 128;
/// The float model divides the pooled cell features by this.
pub const POOL_DIVISOR: f32 = 32.0;
/// A pooled input of 1.0 to the head: the pooled sum (in [`CELL_ONE`]
/// units) halved, so that it fits 16 bits on a 15 × 15 board.
pub const INPUT_ONE: i32 = 2048;
/// A dense weight of 1.0 (weights are 8-bit: at most 127/64).
pub const DENSE_ONE: i32 = 64;
/// A hidden unit's sum of 1.0 (input units times weight units), where it
/// saturates.
pub const HIDDEN_SUM_ONE: i32 = DENSE_ONE * INPUT_ONE;
/// A hidden unit's output of 1.0 (its sum shifted down).
pub const HIDDEN_ONE: i32 = HIDDEN_SUM_ONE >> HIDDEN_SHIFT;
/// How far a hidden sum is shifted to its output.
pub const HIDDEN_SHIFT: u32 = 4;
/// The output's logit of 1.0.
pub const OUT_ONE: i32 = DENSE_ONE * HIDDEN_ONE;
/// Engine score units per logit of the network's winning chance: the
/// scale the code tables were fitted at (K = 0.00149), so that the
/// search's margins, tuned for them, keep their meaning.
pub const SCORE_PER_LOGIT: f32 = 672.0;

/// The largest table value either way: four of them and a bias stay
/// within 16 bits.
pub const MAX_TABLE_VALUE: i16 = 6_000;
/// The largest cell bias either way.
pub const MAX_CELL_BIAS: i16 = 2_000;

/// A policy weight of 1.0: a cell feature at [`CELL_ONE`] times it adds
/// one to the move's logit.
pub const POLICY_ONE: i32 = 256;

/// The width of the policy's own features: channels summed from a
/// table of its own over the mover's rows of a cell's four directions.
pub const POLICY_CHANNELS: usize = 16;

/// The format version of network files: 2 adds the policy heads, 3 the
/// policy's own features (files of formats 1 and 2 still read).
pub const NET_FORMAT: u32 = 3;

const FAMILY: &str = "net";

/// The most a network file may claim in memory.
const NET_DECODE_LIMIT: usize = 1 << 26;

/// The dense head: the side to move's pooled features, then its
/// opponent's, to [`HIDDEN`] clipped units, to a logit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// By hidden unit, its 2 × [`CHANNELS`] input weights ([`DENSE_ONE`] units).
    pub hidden: Vec<i8>,
    /// By hidden unit, its bias ([`HIDDEN_SUM_ONE`] units).
    pub hidden_bias: Vec<i32>,
    /// By hidden unit, its output weight ([`DENSE_ONE`] units).
    pub out: Vec<i8>,
    /// The output's bias ([`OUT_ONE`] units).
    pub out_bias: i32,
}

/// The policy head: a move's logit from the cell's clipped features,
/// as the side that moves sees them and as its opponent does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyHead {
    /// [`CHANNELS`] weights of the mover's view ([`POLICY_ONE`] units).
    pub mine: Vec<i16>,
    /// [`CHANNELS`] weights of the opponent's view.
    pub theirs: Vec<i16>,
    /// The policy's own features, empty where it has none: by the
    /// mover's row of a direction, [`POLICY_CHANNELS`] values
    /// ([`CELL_ONE`] units); a cell's are its four rows' summed with `bias`.
    pub tables: Vec<i16>,
    /// [`POLICY_CHANNELS`] values every cell's own features start from.
    pub bias: Vec<i16>,
    /// [`POLICY_CHANNELS`] weights of the own features, clipped to
    /// [0, [`CELL_ONE`]] ([`POLICY_ONE`] units).
    pub out: Vec<i16>,
}

impl PolicyHead {
    /// Whether it has features of its own.
    #[must_use]
    pub fn has_features(&self) -> bool {
        !self.out.is_empty()
    }
}

/// A line-pattern network's weights. Tables and heads come one per
/// colour where the rules treat the colours differently (renju), else
/// one shared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetWeights {
    /// By viewer's colour: by row, [`CHANNELS`] values ([`CELL_ONE`] units).
    pub tables: Vec<Vec<i16>>,
    /// By viewer's colour: what every cell's sum starts from.
    pub cell_bias: Vec<Vec<i16>>,
    /// By the side to move's colour.
    pub heads: Vec<Head>,
    /// By the side to move's colour, the move policy; none (empty) where
    /// the network was fitted to values alone.
    pub policy: Vec<PolicyHead>,
    /// How the weights were made (data, commands, judge).
    pub provenance: String,
}

/// The file: the header, then the weights.
#[derive(Serialize, Deserialize)]
struct NetFile {
    format: u32,
    family: String,
    channels: u32,
    hidden: u32,
    rows: u32,
    weights: NetWeights,
}

/// A file of an earlier format: the header, then weights of that
/// format's shape (`NetWeightsV1`, `NetWeightsV2`).
#[derive(Deserialize)]
struct OldNetFile<W> {
    format: u32,
    family: String,
    channels: u32,
    hidden: u32,
    rows: u32,
    weights: W,
}

impl<W: Into<NetWeights>> From<OldNetFile<W>> for NetFile {
    fn from(old: OldNetFile<W>) -> NetFile {
        NetFile {
            format: old.format,
            family: old.family,
            channels: old.channels,
            hidden: old.hidden,
            rows: old.rows,
            weights: old.weights.into(),
        }
    }
}

/// Format 1's weights: no policy heads.
#[derive(Deserialize)]
struct NetWeightsV1 {
    tables: Vec<Vec<i16>>,
    cell_bias: Vec<Vec<i16>>,
    heads: Vec<Head>,
    provenance: String,
}

impl From<NetWeightsV1> for NetWeights {
    fn from(old: NetWeightsV1) -> NetWeights {
        let NetWeightsV1 { tables, cell_bias, heads, provenance } = old;
        NetWeights { tables, cell_bias, heads, policy: Vec::new(), provenance }
    }
}

/// Format 2's weights: policy heads without features of their own.
#[derive(Deserialize)]
struct NetWeightsV2 {
    tables: Vec<Vec<i16>>,
    cell_bias: Vec<Vec<i16>>,
    heads: Vec<Head>,
    policy: Vec<PolicyHeadV2>,
    provenance: String,
}

#[derive(Deserialize)]
struct PolicyHeadV2 {
    mine: Vec<i16>,
    theirs: Vec<i16>,
}

impl From<NetWeightsV2> for NetWeights {
    fn from(old: NetWeightsV2) -> NetWeights {
        let NetWeightsV2 { tables, cell_bias, heads, policy, provenance } = old;
        let policy = policy
            .into_iter()
            .map(|PolicyHeadV2 { mine, theirs }| PolicyHead {
                mine,
                theirs,
                tables: Vec::new(),
                bias: Vec::new(),
                out: Vec::new(),
            })
            .collect();
        NetWeights { tables, cell_bias, heads, policy, provenance }
    }
}

/// The embedded networks, fitted to the sparring partner's values
/// (`cargo xtask train net`; their provenance is inside).
const NET_FREESTYLE: Option<&[u8]> = Some(include_bytes!("../../weights/net-5.bin"));
const NET_RENJU: Option<&[u8]> = Some(include_bytes!("../../weights/net-5-renju.bin"));

impl NetWeights {
    /// All-zero weights with `colours` tables and heads (1 or 2).
    #[must_use]
    pub fn zero(colours: usize) -> NetWeights {
        let head = Head {
            hidden: vec![0; HIDDEN * 2 * CHANNELS],
            hidden_bias: vec![0; HIDDEN],
            out: vec![0; HIDDEN],
            out_bias: 0,
        };
        NetWeights {
            tables: vec![vec![0; ROWS * CHANNELS]; colours],
            cell_bias: vec![vec![0; CHANNELS]; colours],
            heads: vec![head; colours],
            policy: Vec::new(),
            provenance: String::new(),
        }
    }

    /// The embedded network for `rules`: renju's own, else freestyle's
    /// (caro and the others included); `None` where none is embedded or
    /// k is not 5.
    ///
    /// # Panics
    /// Never: the embedded files load (a unit test reads each).
    #[must_use]
    pub fn default_for(rules: &Rules) -> Option<NetWeights> {
        static FREESTYLE: OnceLock<Option<NetWeights>> = OnceLock::new();
        static RENJU: OnceLock<Option<NetWeights>> = OnceLock::new();
        if rules.k() != 5 {
            return None;
        }
        let load = |bytes: Option<&[u8]>| {
            bytes.map(|b| NetWeights::from_bytes(b).expect("the embedded network loads"))
        };
        match rules.rule_set() {
            RuleSet::Renju => RENJU.get_or_init(|| load(NET_RENJU)).clone(),
            _ => FREESTYLE.get_or_init(|| load(NET_FREESTYLE)).clone(),
        }
    }

    /// How many colours it tells apart: 1 or 2.
    #[must_use]
    pub fn colours(&self) -> usize {
        self.tables.len()
    }

    /// Which table and head serve `side`.
    #[inline]
    #[must_use]
    pub fn colour_index(&self, side: Side) -> usize {
        if self.tables.len() == 1 { 0 } else { side.index() }
    }

    fn check(&self) -> Result<(), WeightsError> {
        let bad = |why: String| Err(WeightsError::Net(why));
        let colours = self.tables.len();
        if !(1..=2).contains(&colours) || self.cell_bias.len() != colours || self.heads.len() != colours {
            return bad(format!(
                "{} tables, {} biases and {} heads: expected 1 or 2 of each, as many of each",
                colours,
                self.cell_bias.len(),
                self.heads.len()
            ));
        }
        let rows = ROWS * CHANNELS;
        for table in &self.tables {
            if table.len() != rows {
                return bad(format!("a table of {} values, not {rows}", table.len()));
            }
            if table.iter().any(|v| v.abs() > MAX_TABLE_VALUE) {
                return bad(format!("a table value beyond ±{MAX_TABLE_VALUE}"));
            }
        }
        for bias in &self.cell_bias {
            if bias.len() != CHANNELS {
                return bad(format!("a cell bias of {} values, not {CHANNELS}", bias.len()));
            }
            if bias.iter().any(|v| v.abs() > MAX_CELL_BIAS) {
                return bad(format!("a cell bias beyond ±{MAX_CELL_BIAS}"));
            }
        }
        for head in &self.heads {
            three_lengths(
                "a head of",
                [head.hidden.len(), head.hidden_bias.len(), head.out.len()],
                [HIDDEN * 2 * CHANNELS, HIDDEN, HIDDEN],
            )?;
            // A bias beyond these bounds could overflow a sum.
            if head.hidden_bias.iter().any(|b| b.abs() > 64 * HIDDEN_SUM_ONE)
                || head.out_bias.abs() > 64 * OUT_ONE
            {
                return bad("a bias out of range".to_owned());
            }
        }
        if !self.policy.is_empty() && self.policy.len() != colours {
            return bad(format!(
                "{} policy heads for {colours} tables: expected none or one each",
                self.policy.len()
            ));
        }
        if self.policy.iter().any(|p| p.mine.len() != CHANNELS || p.theirs.len() != CHANNELS) {
            return bad(format!("a policy head without 2 × {CHANNELS} weights"));
        }
        for head in
            self.policy.iter().filter(|p| p.has_features() || !p.tables.is_empty() || !p.bias.is_empty())
        {
            three_lengths(
                "a policy's own features of",
                [head.tables.len(), head.bias.len(), head.out.len()],
                [ROWS * POLICY_CHANNELS, POLICY_CHANNELS, POLICY_CHANNELS],
            )?;
            if head.tables.iter().any(|v| v.abs() > MAX_TABLE_VALUE)
                || head.bias.iter().any(|v| v.abs() > MAX_CELL_BIAS)
            {
                return bad("a policy's own row or bias out of range".to_owned());
            }
        }
        Ok(())
    }

    /// The weights as a file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        encode_sealed(&NetFile {
            format: NET_FORMAT,
            family: FAMILY.to_owned(),
            channels: CHANNELS as u32,
            hidden: HIDDEN as u32,
            rows: ROWS as u32,
            weights: self.clone(),
        })
    }

    /// Reads what [`NetWeights::to_bytes`] wrote.
    ///
    /// # Errors
    /// [`WeightsError`] if the bytes are damaged, of another family or
    /// format, or of another shape than this build's network.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetWeights, WeightsError> {
        // The format comes first: it says how the rest reads.
        let (format, _): (u32, usize) = bincode::serde::decode_from_slice(bytes, bincode::config::standard())
            .map_err(|err| WeightsError::Bincode(err.to_string()))?;
        check_format(format, 1..=NET_FORMAT)?;
        let file: NetFile = match format {
            1 => decode_sealed_within::<NET_DECODE_LIMIT, OldNetFile<NetWeightsV1>>(bytes)?.into(),
            2 => decode_sealed_within::<NET_DECODE_LIMIT, OldNetFile<NetWeightsV2>>(bytes)?.into(),
            _ => decode_sealed_within::<NET_DECODE_LIMIT, NetFile>(bytes)?,
        };
        check_header((file.format, &file.family), (1..=NET_FORMAT, FAMILY), WeightsError::Net)?;
        let shape = (file.channels, file.hidden, file.rows);
        let ours = (CHANNELS as u32, HIDDEN as u32, ROWS as u32);
        if shape != ours {
            return Err(WeightsError::Net(format!(
                "a network of {} channels, {} hidden units and {} rows; this build's has {}, {} and {}",
                shape.0, shape.1, shape.2, ours.0, ours.1, ours.2
            )));
        }
        file.weights.check()?;
        Ok(file.weights)
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// [`WeightsError`] if it cannot be read or is not such a file.
    pub fn load(path: &Path) -> Result<NetWeights, WeightsError> {
        let bytes = play::files::read(path).map_err(|source| WeightsError::Io {
            action: "read",
            path: path.to_owned(),
            source,
        })?;
        NetWeights::from_bytes(&bytes)
    }

    /// Writes the network to `path` through a temporary file.
    ///
    /// # Errors
    /// [`WeightsError::Io`] if it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        write_atomically(path, &self.to_bytes())
    }
}

/// Refuses a part of three arrays whose lengths are not the shape's.
fn three_lengths(what: &str, got: [usize; 3], want: [usize; 3]) -> Result<(), WeightsError> {
    if got == want {
        return Ok(());
    }
    Err(WeightsError::Net(format!(
        "{what} {} + {} + {} values, not {} + {} + {}",
        got[0], got[1], got[2], want[0], want[1], want[2]
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_networks_load_and_tell_renju_apart() {
        let free = NetWeights::default_for(&Rules::gomoku15()).expect("freestyle's network");
        let renju = NetWeights::default_for(&Rules::renju()).expect("renju's network");
        assert_eq!(free.colours(), 1);
        assert_eq!(renju.colours(), 2);
        assert!(!free.provenance.is_empty() && !renju.provenance.is_empty());
        assert_eq!(NetWeights::default_for(&Rules::caro()), Some(free));
        assert!(NetWeights::default_for(&Rules::tic_tac_toe()).is_none());
    }

    /// A file of an earlier format as it was written: the header, then
    /// that format's weights.
    #[derive(Serialize)]
    struct OldFile<'a, W> {
        format: u32,
        family: &'a str,
        channels: u32,
        hidden: u32,
        rows: u32,
        weights: W,
    }

    fn old_file<'a, W>(format: u32, weights: W) -> OldFile<'a, W> {
        OldFile {
            format,
            family: FAMILY,
            channels: CHANNELS as u32,
            hidden: HIDDEN as u32,
            rows: ROWS as u32,
            weights,
        }
    }

    #[test]
    fn a_file_of_the_first_format_reads_without_a_policy() {
        #[derive(Serialize)]
        struct V1<'a> {
            tables: &'a [Vec<i16>],
            cell_bias: &'a [Vec<i16>],
            heads: &'a [Head],
            provenance: &'a str,
        }
        let mut weights = NetWeights::zero(1);
        weights.tables[0][5] = 42;
        weights.provenance = "format 1".to_owned();
        let v1 = V1 {
            tables: &weights.tables,
            cell_bias: &weights.cell_bias,
            heads: &weights.heads,
            provenance: &weights.provenance,
        };
        let old = old_file(1, v1);
        assert_eq!(NetWeights::from_bytes(&encode_sealed(&old)).unwrap(), weights);
        let newer = OldFile { format: NET_FORMAT + 1, ..old };
        let error = NetWeights::from_bytes(&encode_sealed(&newer)).unwrap_err().to_string();
        assert!(error.contains("format"), "{error}");
    }

    #[test]
    fn a_file_of_the_second_format_reads_without_the_policys_own_features() {
        #[derive(Serialize)]
        struct V2Policy<'a> {
            mine: &'a [i16],
            theirs: &'a [i16],
        }
        #[derive(Serialize)]
        struct V2<'a> {
            tables: &'a [Vec<i16>],
            cell_bias: &'a [Vec<i16>],
            heads: &'a [Head],
            policy: Vec<V2Policy<'a>>,
            provenance: &'a str,
        }
        let mut weights = NetWeights::zero(2);
        weights.tables[1][9] = -8;
        weights.policy = (0..2)
            .map(|k| PolicyHead {
                mine: vec![k; CHANNELS],
                theirs: vec![-k; CHANNELS],
                tables: Vec::new(),
                bias: Vec::new(),
                out: Vec::new(),
            })
            .collect();
        weights.provenance = "format 2".to_owned();
        let v2 = V2 {
            tables: &weights.tables,
            cell_bias: &weights.cell_bias,
            heads: &weights.heads,
            policy: weights.policy.iter().map(|p| V2Policy { mine: &p.mine, theirs: &p.theirs }).collect(),
            provenance: &weights.provenance,
        };
        let read = NetWeights::from_bytes(&encode_sealed(&old_file(2, v2))).unwrap();
        assert_eq!(read, weights);
        assert!(read.policy.iter().all(|p| !p.has_features()));
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let mut weights = NetWeights::zero(2);
        weights.tables[1][77] = -5;
        weights.heads[0].out_bias = 9;
        let features = PolicyHead {
            mine: vec![3; CHANNELS],
            theirs: vec![-4; CHANNELS],
            tables: vec![7; ROWS * POLICY_CHANNELS],
            bias: vec![-2; POLICY_CHANNELS],
            out: vec![5; POLICY_CHANNELS],
        };
        let plain = PolicyHead { tables: Vec::new(), bias: Vec::new(), out: Vec::new(), ..features.clone() };
        weights.policy = vec![features, plain];
        weights.provenance = "a test".to_owned();
        let bytes = weights.to_bytes();
        assert_eq!(NetWeights::from_bytes(&bytes).unwrap(), weights);
        let mut damaged = bytes.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 0x10;
        assert!(NetWeights::from_bytes(&damaged).is_err());
        assert!(NetWeights::from_bytes(&bytes[..bytes.len() - 20]).is_err());
        let mut odd = weights.clone();
        odd.cell_bias.pop();
        let error = NetWeights::from_bytes(&odd.to_bytes()).unwrap_err().to_string();
        assert!(error.contains("1 biases"), "{error}");
        let mut short = weights.clone();
        short.policy[0].out.pop();
        let error = NetWeights::from_bytes(&short.to_bytes()).unwrap_err().to_string();
        assert!(error.contains("own features of 4096 + 16 + 15 values"), "{error}");
        let mut one_policy = weights.clone();
        one_policy.policy.pop();
        let error = NetWeights::from_bytes(&one_policy.to_bytes()).unwrap_err().to_string();
        assert!(error.contains("1 policy heads for 2 tables"), "{error}");
        let dir = std::env::temp_dir().join(format!("net-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.bin");
        weights.save(&path).unwrap();
        assert_eq!(NetWeights::load(&path).unwrap(), weights);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
