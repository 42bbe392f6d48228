//! Weight vectors: one integer per kept pattern, in the table's order,
//! saved as a plain JSON array (so a vector published elsewhere loads as
//! is) or as bincode with its family, k and a format version.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::hand_set;
use crate::table::{Family, MAX_K, MIN_K, PatternTable, UnsupportedK};

/// The largest weight magnitude: eight of them still sum below the score
/// that marks a forced block.
pub const MAX_WEIGHT: i32 = 1_000_000;

/// The version of the bincode weights format.
pub const FORMAT: u32 = 1;

/// The default classic weights for k = 5, embedded: evolved from the
/// hand-set ones (`cargo xtask export-weights` writes this file).
const CLASSIC_5: &str = include_str!("../weights/classic-5.json");
/// The default ternary weights for k = 5, embedded.
const TERNARY_5: &str = include_str!("../weights/ternary-5.json");

/// Why a weight vector could not be made, read or written.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// The length fits no k of the family (or not the k asked for).
    #[error("a {family} weight vector for {expected}; this one has {found} values")]
    WrongLength {
        /// The family.
        family: Family,
        /// What lengths would fit.
        expected: String,
        /// The length found.
        found: usize,
    },
    /// A weight is too large.
    #[error("weight {index} is {value}, outside -{bound}..={bound}")]
    OutOfRange {
        /// Its index.
        index: usize,
        /// Its value.
        value: i64,
        /// The largest a weight of its family may be, either way.
        bound: i32,
    },
    /// The k has no pattern table.
    #[error(transparent)]
    UnsupportedK(#[from] UnsupportedK),
    /// Not a JSON array of whole numbers.
    #[error("not a JSON array of whole numbers: {0}")]
    Json(String),
    /// Not a bincode weights file.
    #[error("not a bincode weights file: {0}")]
    Bincode(String),
    /// Not a JSON threat-weights file (an object with the format, the
    /// family and the weights).
    #[error("not a JSON threat-weights file: {0}")]
    ThreatJson(String),
    /// Not a JSON code-weights file (the format, the family and a value
    /// per shape, for the side to move and for the side that waits).
    #[error("not a JSON code-weights file: {0}")]
    CodeJson(String),
    /// Not a network file of this build's shape.
    #[error("not a network file of this build: {0}")]
    Net(String),
    /// A file of a format version this build does not read.
    #[error("weights file format {found} is not supported (this build reads {reads})")]
    Format {
        /// The version in the file.
        found: u32,
        /// The versions this build reads, in words.
        reads: String,
    },
    /// The file holds the other family.
    #[error("{path} holds {found} weights, not {wanted}: ask for family={found}")]
    OtherFamily {
        /// The file.
        path: PathBuf,
        /// The family in the file.
        found: Family,
        /// The family asked for.
        wanted: Family,
    },
    /// Reading or writing the file failed.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// A weight vector for one pattern family and one k.
#[derive(Clone, Debug)]
pub struct Weights {
    table: &'static PatternTable,
    values: Vec<i32>,
}

impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        (self.family(), self.k(), &self.values) == (other.family(), other.k(), &other.values)
    }
}

impl Eq for Weights {}

/// The bincode file: the vector with what it is for.
#[derive(Serialize, Deserialize)]
struct WeightsFile {
    format: u32,
    family: Family,
    k: u32,
    values: Vec<i32>,
}

impl Weights {
    /// Weights for `family` and `k`, checked: one per pattern of the
    /// table, each within ±[`MAX_WEIGHT`].
    ///
    /// # Errors
    /// [`WeightsError`] if `k` is unsupported, the length is wrong or a
    /// weight is out of range.
    pub fn new(family: Family, k: u32, values: Vec<i32>) -> Result<Weights, WeightsError> {
        let table = PatternTable::new(family, k)?;
        if values.len() != table.len() {
            return Err(WeightsError::WrongLength {
                family,
                expected: format!("k = {k} has {} values", table.len()),
                found: values.len(),
            });
        }
        if let Some((index, &value)) = values.iter().enumerate().find(|(_, w)| w.abs() > MAX_WEIGHT) {
            return Err(WeightsError::OutOfRange { index, value: value.into(), bound: MAX_WEIGHT });
        }
        Ok(Weights { table, values })
    }

    /// The hand-set weights (see the crate docs): what each pattern
    /// means, from open fours down to room to grow.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `k` has no pattern table.
    pub fn hand_set(family: Family, k: u32) -> Result<Weights, UnsupportedK> {
        let table = PatternTable::new(family, k)?;
        Ok(Weights { table, values: hand_set::weights(table) })
    }

    /// The weights the engines play with by default: the embedded
    /// vectors for k = 5, the hand-set ones for other k.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `k` has no pattern table.
    ///
    /// # Panics
    /// If an embedded vector does not load, which the crate's tests rule out.
    pub fn default_for(family: Family, k: u32) -> Result<Weights, UnsupportedK> {
        let embedded = match (family, k) {
            (Family::Classic, 5) => CLASSIC_5,
            (Family::Ternary, 5) => TERNARY_5,
            _ => return Weights::hand_set(family, k),
        };
        Ok(Weights::from_json(family, Some(k), embedded).expect("the embedded weights are valid"))
    }

    /// The family.
    #[must_use]
    pub fn family(&self) -> Family {
        self.table.family()
    }

    /// The k.
    #[must_use]
    pub fn k(&self) -> u32 {
        self.table.k()
    }

    /// The pattern table the weights belong to.
    #[must_use]
    pub fn table(&self) -> &'static PatternTable {
        self.table
    }

    /// The weights, in the table's order.
    #[must_use]
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Reads a plain JSON array of integers. Without `k`, the k is the one
    /// whose table has as many patterns as the array has values.
    ///
    /// # Errors
    /// [`WeightsError`] if the text is not such an array, or its length
    /// or values do not fit.
    pub fn from_json(family: Family, k: Option<u32>, text: &str) -> Result<Weights, WeightsError> {
        let values: Vec<i64> =
            serde_json::from_str(text).map_err(|err| WeightsError::Json(err.to_string()))?;
        if let Some((index, &value)) = values.iter().enumerate().find(|(_, w)| w.abs() > MAX_WEIGHT.into()) {
            return Err(WeightsError::OutOfRange { index, value, bound: MAX_WEIGHT });
        }
        let values: Vec<i32> = values.into_iter().map(|w| w as i32).collect();
        let k = if let Some(k) = k {
            k
        } else {
            (MIN_K..=MAX_K)
                .find(|&k| PatternTable::new(family, k).is_ok_and(|table| table.len() == values.len()))
                .ok_or_else(|| WeightsError::WrongLength {
                    family,
                    expected: length_list(family),
                    found: values.len(),
                })?
        };
        Weights::new(family, k, values)
    }

    /// The weights as a plain JSON array.
    #[must_use]
    pub fn to_json(&self) -> String {
        let values: Vec<String> = self.values.iter().map(i32::to_string).collect();
        format!("[{}]", values.join(","))
    }

    /// The weights in bincode, with family, k and format version.
    ///
    /// # Panics
    /// Never: integers and names always encode.
    #[must_use]
    pub fn to_bincode(&self) -> Vec<u8> {
        let file =
            WeightsFile { format: FORMAT, family: self.family(), k: self.k(), values: self.values.clone() };
        encode_sealed(&file)
    }

    /// Reads weights written by [`Weights::to_bincode`].
    ///
    /// # Errors
    /// [`WeightsError`] if the bytes are not such a file or do not fit.
    pub fn from_bincode(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let file: WeightsFile = decode_sealed(bytes)?;
        check_format(file.format, FORMAT..=FORMAT)?;
        Weights::new(file.family, file.k, file.values)
    }

    /// Reads a weights file of `family`: bincode if the name ends in
    /// `.bin`, else a JSON array.
    ///
    /// # Errors
    /// [`WeightsError`] if it cannot be read or does not fit.
    pub fn load(path: &Path, family: Family) -> Result<Weights, WeightsError> {
        let from_bincode = |bytes: &[u8]| {
            let weights = Weights::from_bincode(bytes)?;
            if weights.family() != family {
                return Err(WeightsError::OtherFamily {
                    path: path.to_owned(),
                    found: weights.family(),
                    wanted: family,
                });
            }
            Ok(weights)
        };
        read_by_name(path, from_bincode, |text| Weights::from_json(family, None, text))
    }

    /// Writes the weights to `path` (bincode if it ends in `.bin`, else
    /// JSON) through a temporary file, so an old file is never left half
    /// written.
    ///
    /// # Errors
    /// [`WeightsError::Io`] if it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        write_by_name(path, || self.to_bincode(), || self.to_json())
    }
}

/// Reads a weights file by its name: bincode if it ends in `.bin`, else
/// JSON, each decoded by its own reader.
/// Checks a weights file's format version against those this build reads.
///
/// # Errors
/// [`WeightsError::Format`] if it is not one of `formats`.
pub(crate) fn check_format(found: u32, formats: RangeInclusive<u32>) -> Result<(), WeightsError> {
    if formats.contains(&found) {
        return Ok(());
    }
    let (oldest, newest) = formats.into_inner();
    let reads =
        if oldest == newest { format!("format {newest}") } else { format!("formats {oldest} to {newest}") };
    Err(WeightsError::Format { found, reads })
}

/// Checks a weights file's header, as every family's reader does: its
/// format version one of `formats`, its family name `family` (else the
/// error `not_this` makes of a message).
///
/// # Errors
/// [`WeightsError::Format`], or `not_this`'s error for another family.
pub(crate) fn check_header(
    (found_format, found_family): (u32, &str),
    (formats, family): (RangeInclusive<u32>, &str),
    not_this: fn(String) -> WeightsError,
) -> Result<(), WeightsError> {
    check_format(found_format, formats)?;
    if found_family != family {
        return Err(not_this(format!("family is {found_family:?}, not \"{family}\"")));
    }
    Ok(())
}

pub(crate) fn read_by_name<T>(
    path: &Path,
    from_bincode: impl FnOnce(&[u8]) -> Result<T, WeightsError>,
    from_json: impl FnOnce(&str) -> Result<T, WeightsError>,
) -> Result<T, WeightsError> {
    let io = |source| WeightsError::Io { action: "read", path: path.to_owned(), source };
    if is_bincode(path) {
        from_bincode(&play::files::read(path).map_err(io)?)
    } else {
        from_json(&play::files::read_to_string(path).map_err(io)?)
    }
}

/// Writes weights to `path` by its name (bincode if it ends in `.bin`,
/// else JSON and a newline) through a temporary file.
pub(crate) fn write_by_name(
    path: &Path,
    to_bincode: impl FnOnce() -> Vec<u8>,
    to_json: impl FnOnce() -> String,
) -> Result<(), WeightsError> {
    let bytes = if is_bincode(path) { to_bincode() } else { (to_json() + "\n").into_bytes() };
    write_atomically(path, &bytes)
}

/// Writes `bytes` to `path` through a temporary file beside it, so an old
/// file is never left half written.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WeightsError> {
    play::files::write_atomically(path, bytes).map_err(|source| WeightsError::Io {
        action: "write",
        path: path.to_owned(),
        source,
    })
}

/// The most memory decoding a weights file may claim: far more than any
/// family needs, far less than a damaged length would ask for.
const DECODE_LIMIT: usize = 1 << 20;

/// `file` in bincode, then a checksum of those bytes (8, little-endian).
pub(crate) fn encode_sealed<T: serde::Serialize>(file: &T) -> Vec<u8> {
    let mut bytes =
        bincode::serde::encode_to_vec(file, bincode::config::standard()).expect("weights serialise");
    let sum = play::files::checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// Reads what [`encode_sealed`] wrote, within a memory limit, checking the
/// checksum; a file written before checksums (no trailer) still reads.
/// Anything else after the contents is refused.
pub(crate) fn decode_sealed<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, WeightsError> {
    decode_sealed_within::<DECODE_LIMIT, T>(bytes)
}

/// [`decode_sealed`] with a memory limit of `LIMIT` bytes.
pub(crate) fn decode_sealed_within<const LIMIT: usize, T: serde::de::DeserializeOwned>(
    bytes: &[u8],
) -> Result<T, WeightsError> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    let (file, read): (T, usize) = bincode::serde::decode_from_slice(bytes, config)
        .map_err(|err| WeightsError::Bincode(err.to_string()))?;
    match &bytes[read..] {
        [] => Ok(file),
        trailer if trailer.len() == 8 => {
            if play::files::checksum(&bytes[..read]).to_le_bytes() == trailer {
                Ok(file)
            } else {
                Err(WeightsError::Bincode("damaged: its checksum does not match its contents".to_owned()))
            }
        }
        rest => Err(WeightsError::Bincode(format!("{} bytes after the weights", rest.len()))),
    }
}

pub(crate) fn is_bincode(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("bin"))
}

/// "k = 3 has 4 values, k = 4 has 24, ..." for a length error.
fn length_list(family: Family) -> String {
    let lengths: Vec<String> = (MIN_K..=MAX_K)
        .filter_map(|k| PatternTable::new(family, k).ok().map(|table| format!("{} (k = {k})", table.len())))
        .collect();
    format!("k from {MIN_K} to {MAX_K} has one of {} values", lengths.join(", "))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn json_round_trips_as_a_plain_array() {
        let weights = Weights::hand_set(Family::Classic, 3).unwrap();
        let json = weights.to_json();
        assert!(json.starts_with('[') && json.ends_with(']'));
        assert_eq!(Weights::from_json(Family::Classic, None, &json).unwrap(), weights);
        assert_eq!(Weights::from_json(Family::Classic, Some(3), &json).unwrap(), weights);
    }

    #[test]
    fn the_length_decides_k() {
        let values = vec![1; 109];
        let json = serde_json::to_string(&values).unwrap();
        let weights = Weights::from_json(Family::Classic, None, &json).unwrap();
        assert_eq!(weights.k(), 5);
        let error = Weights::from_json(Family::Classic, None, "[1, 2, 3]").unwrap_err().to_string();
        assert!(error.contains("109 (k = 5)") && error.contains("this one has 3 values"), "{error}");
        let error = Weights::from_json(Family::Classic, Some(4), &json).unwrap_err().to_string();
        assert!(error.contains("k = 4 has 24 values"), "{error}");
    }

    #[test]
    fn bad_json_is_a_clear_error() {
        for text in ["", "{}", "[1, 2.5]", "[\"a\"]", "[1,"] {
            let error = Weights::from_json(Family::Classic, None, text).unwrap_err();
            assert!(matches!(error, WeightsError::Json(_)), "{text}: {error}");
        }
        let mut values = vec![0i64; 109];
        values[7] = 2_000_000;
        let error = Weights::from_json(Family::Classic, None, &serde_json::to_string(&values).unwrap());
        assert_eq!(error.unwrap_err().to_string(), "weight 7 is 2000000, outside -1000000..=1000000");
    }

    #[test]
    fn bincode_round_trips_and_checks() {
        let weights = Weights::default_for(Family::Ternary, 5).unwrap();
        let bytes = weights.to_bincode();
        assert_eq!(Weights::from_bincode(&bytes).unwrap(), weights);
        assert!(matches!(Weights::from_bincode(&bytes[..bytes.len() / 2]), Err(WeightsError::Bincode(_))));
        let mut long = bytes.clone();
        long.push(0);
        assert!(Weights::from_bincode(&long).unwrap_err().to_string().contains("9 bytes after the weights"));
        // The checksum catches a changed byte; a file from before it loads.
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert!(Weights::from_bincode(&damaged).unwrap_err().to_string().contains("damaged"));
        let unsealed = &bytes[..bytes.len() - 8];
        assert_eq!(Weights::from_bincode(unsealed).unwrap(), weights);
        let other = WeightsFile { format: 99, family: Family::Classic, k: 5, values: vec![] };
        let bytes = bincode::serde::encode_to_vec(&other, bincode::config::standard()).unwrap();
        assert_eq!(
            Weights::from_bincode(&bytes).unwrap_err().to_string(),
            "weights file format 99 is not supported (this build reads format 1)"
        );
    }

    #[test]
    fn embedded_defaults_load() {
        for family in Family::ALL {
            let weights = Weights::default_for(family, 5).unwrap();
            assert_eq!(weights.values().len(), PatternTable::new(family, 5).unwrap().len());
            assert!(Weights::default_for(family, 4).is_ok());
        }
    }

    #[test]
    fn files_save_and_load() {
        let dir = std::env::temp_dir().join(format!("pattern-eval-weights-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let weights = Weights::default_for(Family::Classic, 5).unwrap();
        for name in ["w.json", "w.bin"] {
            let path = dir.join(name);
            weights.save(&path).unwrap();
            assert_eq!(Weights::load(&path, Family::Classic).unwrap(), weights);
        }
        let error = Weights::load(&dir.join("w.bin"), Family::Ternary).unwrap_err().to_string();
        assert!(error.contains("holds classic weights, not ternary"), "{error}");
        let error = Weights::load(&dir.join("missing.json"), Family::Classic).unwrap_err().to_string();
        assert!(error.starts_with("cannot read"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
