//! Pattern tables: which window patterns there are, which share a weight,
//! and where each one's weight sits in a weight vector.
//!
//! Both families look at the `2(k−1)` cells around a candidate cell along
//! one direction, `k−1` on each side. Inside the crate a window is held as
//! bit masks with bit `p` for window position `p`, far left first: bits
//! `0..k−1` are the left cells (bit `k−2` next to the candidate), bits
//! `k−1..2k−2` the right cells (bit `k−1` next to the candidate). A mask
//! and its mirror image share one weight, so the orientation of that
//! layout never changes a score.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The smallest k the pattern evaluators support.
pub const MIN_K: u32 = 2;
/// The largest k the pattern evaluators support: a window is then 14 cells.
pub const MAX_K: u32 = 8;

/// A pattern family: what a window cell can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// The classic binary masks: own mark or not, the opponent unseen.
    Classic,
    /// Own mark, empty, or blocked (an opponent mark or the board's edge,
    /// which end a line alike); nothing past the first block counts.
    Ternary,
}

impl Family {
    /// Both families.
    pub const ALL: [Family; 2] = [Family::Classic, Family::Ternary];

    /// The family's name, as in specs and files: `classic` or `ternary`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Family::Classic => "classic",
            Family::Ternary => "ternary",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A family name that is neither `classic` nor `ternary`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown pattern family {0:?}: expected classic or ternary")]
pub struct FamilyError(pub String);

impl FromStr for Family {
    type Err = FamilyError;

    fn from_str(text: &str) -> Result<Family, FamilyError> {
        Family::ALL
            .into_iter()
            .find(|family| family.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| FamilyError(text.to_owned()))
    }
}

/// A k the pattern tables do not cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("pattern evaluation needs k from {MIN_K} to {MAX_K}, got k = {0}")]
pub struct UnsupportedK(pub u32);

/// What a pattern is worth, before weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternIndex {
    /// Worth nothing: the empty classic mask, or a ternary pattern with
    /// too little room left for k in a row.
    Zero,
    /// Completes k in a row with the candidate: win now (or block now).
    Win,
    /// Weight `i` of the weight vector.
    Weight(usize),
}

/// Slot values in [`PatternTable::slot`]: 0 is zero, this is a win, and
/// `i + 1` is weight `i`.
pub(crate) const WIN_SLOT: u16 = u16::MAX;

/// The patterns of one family for one k: the kept patterns in weight
/// order and a lookup from every window code to its weight index.
#[derive(Debug)]
pub struct PatternTable {
    family: Family,
    k: u32,
    /// The kept patterns in weight order, far-left cell first: classic
    /// masks as bits, ternary patterns as base-3 numbers.
    patterns: Vec<u32>,
    /// By window code (see [`PatternTable::code`]): 0 zero, [`WIN_SLOT`]
    /// a win, `i + 1` weight `i`.
    slots: Vec<u16>,
}

impl PatternTable {
    /// The table of `family` for `k`, built on first use and kept.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `k` is outside [`MIN_K`]..=[`MAX_K`].
    pub fn new(family: Family, k: u32) -> Result<&'static PatternTable, UnsupportedK> {
        static CLASSIC: [OnceLock<PatternTable>; MAX_K as usize + 1] =
            [const { OnceLock::new() }; MAX_K as usize + 1];
        static TERNARY: [OnceLock<PatternTable>; MAX_K as usize + 1] =
            [const { OnceLock::new() }; MAX_K as usize + 1];
        if !(MIN_K..=MAX_K).contains(&k) {
            return Err(UnsupportedK(k));
        }
        let cache = match family {
            Family::Classic => &CLASSIC,
            Family::Ternary => &TERNARY,
        };
        Ok(cache[k as usize].get_or_init(|| match family {
            Family::Classic => build_classic(k),
            Family::Ternary => build_ternary(k),
        }))
    }

    /// The classic binary-mask table for `k`.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `k` is outside [`MIN_K`]..=[`MAX_K`].
    pub fn classic(k: u32) -> Result<&'static PatternTable, UnsupportedK> {
        PatternTable::new(Family::Classic, k)
    }

    /// The ternary (own / empty / blocked) table for `k`.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `k` is outside [`MIN_K`]..=[`MAX_K`].
    pub fn ternary(k: u32) -> Result<&'static PatternTable, UnsupportedK> {
        PatternTable::new(Family::Ternary, k)
    }

    /// The family.
    #[must_use]
    pub fn family(&self) -> Family {
        self.family
    }

    /// The k the patterns are for.
    #[must_use]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Cells in a window: `2(k−1)`.
    #[must_use]
    pub fn window_len(&self) -> u32 {
        2 * (self.k - 1)
    }

    /// The number of weights: the length of a weight vector.
    #[must_use]
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether there are no weights at all (k = 2: every own mark next to
    /// the candidate already wins).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The kept patterns in weight order, far-left cell first: weight `i`
    /// belongs to `patterns()[i]`. A classic mask has bit `2k−3` for the
    /// far-left cell down to bit 0 for the far-right one (1 = own mark);
    /// a ternary pattern is a base-3 number with the far-left cell as its
    /// most significant digit (0 empty, 1 own, 2 blocked, every cell past
    /// a block blocked too).
    #[must_use]
    pub fn patterns(&self) -> &[u32] {
        &self.patterns
    }

    /// Pattern `i` as text, far left first: classic masks in binary
    /// (`00000011`), ternary patterns as `.` empty, `x` own, `#` blocked,
    /// with `_` for the candidate cell (`..x_x.##`).
    #[must_use]
    pub fn pattern_text(&self, i: usize) -> Option<String> {
        let pattern = *self.patterns.get(i)?;
        let len = self.window_len();
        Some(match self.family {
            Family::Classic => format!("{pattern:0width$b}", width = len as usize),
            Family::Ternary => {
                let digits = base3_digits(pattern, len);
                let half = len as usize / 2;
                let mut text = String::new();
                for (p, digit) in digits.iter().enumerate() {
                    if p == half {
                        text.push('_');
                    }
                    text.push(['.', 'x', '#'][usize::from(*digit)]);
                }
                text
            }
        })
    }

    /// What `pattern` is worth: its weight index, a win, or nothing.
    /// `pattern` is written as in [`PatternTable::patterns`]; a ternary
    /// pattern need not be normalised (cells past a block are ignored).
    /// Values with digits beyond the window are read modulo its size.
    #[must_use]
    pub fn index(&self, pattern: u32) -> PatternIndex {
        let len = self.window_len();
        let (own, blocked) = match self.family {
            Family::Classic => (reverse(pattern & low_bits(len), len), 0),
            Family::Ternary => {
                let digits = base3_digits(pattern, len);
                let bits = |wanted: u8| {
                    digits
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| **d == wanted)
                        .fold(0, |acc, (p, _)| acc | 1 << p)
                };
                (bits(1), bits(2))
            }
        };
        slot_index(self.slots[self.code(own, blocked)])
    }

    /// The window code of a view: `own` and `blocked` are window masks in
    /// the crate's layout (bit 0 far left). Classic tables ignore `blocked`.
    #[inline]
    #[must_use]
    pub(crate) fn code(&self, own: u32, blocked: u32) -> usize {
        match self.family {
            Family::Classic => own as usize,
            Family::Ternary => ternary_key(own, blocked, self.k),
        }
    }

    /// The slot of every window code, for evaluators to map to values.
    #[must_use]
    pub(crate) fn slots(&self) -> &[u16] {
        &self.slots
    }
}

/// A slot as a [`PatternIndex`].
pub(crate) fn slot_index(slot: u16) -> PatternIndex {
    match slot {
        0 => PatternIndex::Zero,
        WIN_SLOT => PatternIndex::Win,
        i => PatternIndex::Weight(usize::from(i) - 1),
    }
}

/// The lowest `n` bits set.
#[inline]
pub(crate) const fn low_bits(n: u32) -> u32 {
    if n >= 32 { u32::MAX } else { (1 << n) - 1 }
}

/// `mask` read backwards over `len` bits: its mirror image.
pub(crate) fn reverse(mask: u32, len: u32) -> u32 {
    if len == 0 { 0 } else { mask.reverse_bits() >> (32 - len) }
}

/// Whether `mask` holds `n` ones in a row.
fn has_run(mask: u32, n: u32) -> bool {
    let mut run = mask;
    for _ in 1..n {
        run &= run >> 1;
    }
    run != 0
}

/// The ternary lookup key of a view: the open cells on each side (up to
/// the first block) and the own marks among them, nearest first.
///
/// Each side is `(1 << open) | own bits`, under `2^k`, so the key is
/// below `2^2k`: 1,024 entries for k = 5.
#[inline]
pub(crate) fn ternary_key(own: u32, blocked: u32, k: u32) -> usize {
    let n = k - 1;
    let side = low_bits(n);
    // Left: bit n−1 is next to the candidate; count open cells downwards.
    let left_open = ((blocked & side) << (32 - n)).leading_zeros().min(n);
    let left = (1 << left_open) | ((own & side) >> (n - left_open));
    // Right: bit 0 (window bit n) is next to the candidate.
    let right_open = ((blocked >> n) & side).trailing_zeros().min(n);
    let right = (1 << right_open) | ((own >> n) & low_bits(right_open));
    ((left << k) | right) as usize
}

/// `value`'s `len` base-3 digits, most significant first.
fn base3_digits(mut value: u32, len: u32) -> Vec<u8> {
    let mut digits = vec![0; len as usize];
    for digit in digits.iter_mut().rev() {
        *digit = (value % 3) as u8;
        value /= 3;
    }
    digits
}

/// A window view as cells: the open cells left of the candidate and right
/// of it, nearest first, `true` for an own mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) left: Vec<bool>,
    pub(crate) right: Vec<bool>,
}

impl Line {
    /// The view of window masks `own` and `blocked` (crate layout).
    pub(crate) fn from_masks(own: u32, blocked: u32, k: u32) -> Line {
        let n = k - 1;
        let mut left = Vec::new();
        for p in (0..n).rev() {
            if blocked >> p & 1 == 1 {
                break;
            }
            left.push(own >> p & 1 == 1);
        }
        let mut right = Vec::new();
        for p in n..2 * n {
            if blocked >> p & 1 == 1 {
                break;
            }
            right.push(own >> p & 1 == 1);
        }
        Line { left, right }
    }

    /// Own marks next to the candidate on the left, then on the right.
    fn runs(&self) -> (usize, usize) {
        let run = |cells: &[bool]| cells.iter().take_while(|own| **own).count();
        (run(&self.left), run(&self.right))
    }

    /// Whether the candidate completes `k` in a row.
    pub(crate) fn wins(&self, k: u32) -> bool {
        let (left, right) = self.runs();
        left + right + 1 >= k as usize
    }

    /// Whether `k` in a row can never pass through the candidate here.
    pub(crate) fn is_dead(&self, k: u32) -> bool {
        self.left.len() + self.right.len() + 1 < k as usize
    }

    /// The pattern as a normalised base-3 number, far left first (0
    /// empty, 1 own, 2 blocked), over `2(k−1)` digits.
    fn base3(&self, k: u32) -> u32 {
        let n = (k - 1) as usize;
        let digit = |cells: &[bool], i: usize| match cells.get(i) {
            None => 2,
            Some(true) => 1,
            Some(false) => 0,
        };
        let left = (0..n).rev().map(|i| digit(&self.left, i));
        let right = (0..n).map(|i| digit(&self.right, i));
        left.chain(right).fold(0, |acc, d| acc * 3 + d)
    }

    /// The mirror image.
    fn mirrored(&self) -> Line {
        Line { left: self.right.clone(), right: self.left.clone() }
    }
}

/// Classic masks: enumerate 0..2^(2k−2) in increasing order and keep the
/// first of each mirror pair that does not already win.
fn build_classic(k: u32) -> PatternTable {
    let len = 2 * (k - 1);
    let mut index = vec![0u16; 1 << len];
    let mut patterns = Vec::new();
    for mask in 0..1u32 << len {
        let mirror = reverse(mask, len);
        index[mask as usize] = if has_run(mask, k - 1) {
            WIN_SLOT
        } else if mask == 0 {
            0
        } else if mirror < mask {
            index[mirror as usize]
        } else {
            patterns.push(mask);
            patterns.len() as u16
        };
    }
    // Window codes put the far-left cell at bit 0, the mask at its top
    // bit: a code is its mask's mirror, which shares the mask's slot.
    PatternTable { family: Family::Classic, k, patterns, slots: index }
}

/// Ternary patterns: every view a window can give (open cells and own
/// marks on each side), normalised; kept are those that neither win nor
/// are dead, one per mirror pair, in increasing base-3 order.
fn build_ternary(k: u32) -> PatternTable {
    let n = k - 1;
    let mut views = Vec::new();
    for left in 1u32..1 << k {
        for right in 1u32..1 << k {
            let (left_open, right_open) = (left.ilog2(), right.ilog2());
            let line = Line {
                left: (0..left_open).map(|i| left >> (left_open - 1 - i) & 1 == 1).collect(),
                right: (0..right_open).map(|i| right >> i & 1 == 1).collect(),
            };
            let key = ((left << k) | right) as usize;
            views.push((key, line));
        }
    }
    let canonical = |line: &Line| line.base3(k).min(line.mirrored().base3(k));
    let mut patterns: Vec<u32> = views
        .iter()
        .filter(|(_, line)| !line.wins(k) && !line.is_dead(k))
        .map(|(_, line)| canonical(line))
        .collect();
    patterns.sort_unstable();
    patterns.dedup();
    let mut slots = vec![0u16; 1 << (2 * k)];
    for (key, line) in &views {
        slots[*key] = if line.wins(k) {
            WIN_SLOT
        } else if line.is_dead(k) {
            0
        } else {
            let i = patterns.binary_search(&canonical(line)).expect("every live view is kept");
            i as u16 + 1
        };
    }
    debug_assert!(n <= 7 && patterns.len() < usize::from(WIN_SLOT));
    PatternTable { family: Family::Ternary, k, patterns, slots }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_k5_has_109_weights_in_the_published_order() {
        let table = PatternTable::classic(5).unwrap();
        assert_eq!(table.len(), 109);
        assert_eq!(table.patterns()[..4], [0b0000_0001, 0b0000_0010, 0b0000_0011, 0b0000_0100]);
        assert_eq!(table.pattern_text(0).unwrap(), "00000001");
        assert_eq!(table.pattern_text(3).unwrap(), "00000100");
        // 110 masks with the empty one.
        let kept = (0..256).filter(|&m| m <= reverse(m, 8) && !has_run(m, 4)).count();
        assert_eq!(kept, 110);
    }

    #[test]
    fn classic_lengths_for_other_k() {
        let lengths: Vec<usize> = (2..=8).map(|k| PatternTable::classic(k).unwrap().len()).collect();
        assert_eq!(lengths[..5], [0, 4, 24, 109, 469]);
        // Brute force: non-winning masks, mirror pairs counted once, empty out.
        for k in 2..=8 {
            let len = 2 * (k - 1);
            let live: Vec<u32> = (0..1u32 << len).filter(|&m| !has_run(m, k - 1)).collect();
            let palindromes = live.iter().filter(|&&m| reverse(m, len) == m).count();
            assert_eq!(PatternTable::classic(k).unwrap().len(), usize::midpoint(live.len(), palindromes) - 1);
        }
    }

    #[test]
    fn classic_masks_and_mirrors_share_an_index() {
        let table = PatternTable::classic(5).unwrap();
        for (i, &mask) in table.patterns().iter().enumerate() {
            assert!(!has_run(mask, 4), "kept mask {mask:08b} already wins");
            assert_eq!(table.index(mask), PatternIndex::Weight(i));
            assert_eq!(table.index(reverse(mask, 8)), PatternIndex::Weight(i));
        }
        assert_eq!(table.index(0), PatternIndex::Zero);
        assert_eq!(table.index(0b0001_1110), PatternIndex::Win);
        assert_eq!(table.index(0b1111_0000), PatternIndex::Win);
        assert_eq!(table.index(0b0000_1111), PatternIndex::Win);
        assert_eq!(table.index(0b0111_1000), PatternIndex::Win);
        assert!(matches!(table.index(0b1110_0111), PatternIndex::Weight(_)));
    }

    #[test]
    fn unsupported_k_is_an_error() {
        assert_eq!(PatternTable::classic(1).unwrap_err(), UnsupportedK(1));
        assert_eq!(PatternTable::ternary(9).unwrap_err(), UnsupportedK(9));
        assert_eq!(UnsupportedK(9).to_string(), "pattern evaluation needs k from 2 to 8, got k = 9");
    }

    #[test]
    fn family_names_parse() {
        assert_eq!("ternary".parse(), Ok(Family::Ternary));
        assert_eq!(" Classic".parse(), Ok(Family::Classic));
        assert!("binary".parse::<Family>().unwrap_err().to_string().contains("classic or ternary"));
    }

    #[test]
    fn ternary_keys_decode_to_the_views_they_stand_for() {
        for k in [3, 5] {
            let n = k - 1;
            for own in 0..1u32 << (2 * n) {
                for blocked in 0..1u32 << (2 * n) {
                    if own & blocked != 0 {
                        continue;
                    }
                    let line = Line::from_masks(own, blocked, k);
                    let key = ternary_key(own, blocked, k);
                    let (left, right) = (key >> k, key & ((1 << k) - 1));
                    assert_eq!((left as u32).ilog2(), line.left.len() as u32);
                    assert_eq!((right as u32).ilog2(), line.right.len() as u32);
                    let slot = PatternTable::ternary(k).unwrap().slots()[key];
                    if line.wins(k) {
                        assert_eq!(slot, WIN_SLOT);
                    } else if line.is_dead(k) {
                        assert_eq!(slot, 0);
                    } else {
                        // A live view has a weight, the one of its pattern.
                        let table = PatternTable::ternary(k).unwrap();
                        assert!(slot != 0 && slot != WIN_SLOT);
                        let pattern = table.patterns()[usize::from(slot) - 1];
                        assert!(pattern == line.base3(k) || pattern == line.mirrored().base3(k));
                    }
                }
            }
        }
    }

    #[test]
    fn ternary_patterns_are_normalised_and_mirror_reduced() {
        let table = PatternTable::ternary(5).unwrap();
        assert!(!table.is_empty());
        assert!(table.patterns().windows(2).all(|w| w[0] < w[1]));
        for (i, &pattern) in table.patterns().iter().enumerate() {
            assert_eq!(table.index(pattern), PatternIndex::Weight(i));
            let text = table.pattern_text(i).unwrap();
            let mirror: String = text.chars().rev().collect();
            // The mirror, written back as a base-3 number, shares the index.
            assert_eq!(table.index(parse(&mirror.replace('_', ""))), PatternIndex::Weight(i), "{text}");
        }
        // Open on both sides with nothing of ours: the board's emptiest line.
        assert_eq!(table.pattern_text(0).unwrap(), "...._....");
        assert_eq!(table.index(parse("........")), PatternIndex::Weight(0));
        // Four of ours next to the candidate win, blocked behind or not.
        assert_eq!(table.index(parse("#xxxx#..")), PatternIndex::Win);
        assert_eq!(table.index(parse("..xxxx..")), PatternIndex::Win);
        // Cells past a block do not count.
        assert_eq!(table.index(parse("..xx#x..")), table.index(parse("..xx####")));
        assert_eq!(table.index(parse("x#.x....")), table.index(parse("##.x....")));
        // Too little room for five: worth nothing whatever the weights.
        assert_eq!(table.index(parse("####.###")), PatternIndex::Zero);
        assert_eq!(table.index(parse("##xx.###")), PatternIndex::Zero);
        assert!(matches!(table.index(parse("##.x..##")), PatternIndex::Weight(_)));
    }

    /// A ternary pattern from text, far left first: `.` empty, `x` own, `#` blocked.
    fn parse(text: &str) -> u32 {
        text.chars().fold(0, |acc, c| acc * 3 + ".x#".find(c).unwrap() as u32)
    }
}
