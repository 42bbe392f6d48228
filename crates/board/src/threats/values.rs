//! Values by cell code: what an evaluation that scores a position as the
//! sum of what each empty cell's code is worth looks up, and keeps summed
//! as the codes a [`Threats`](super::Threats) tracker reports change.

use thiserror::Error;

use std::sync::{Arc, OnceLock};

use super::codes::{forbidden_shapes, plain_code};
use super::{CODES, Code};

/// The most a code may be worth, either way: a sum over every cell of a
/// 32 × 32 board stays far inside an `i32`.
pub const MAX_CODE_VALUE: i32 = 1_000_000;

/// What an empty cell is worth to a side, by the cell's code for that
/// side: once for when that side moves next (`to_move`) and once for when
/// its opponent does (`waiting`). The code 0 (nothing in any direction,
/// and every marked cell) is worth nothing.
#[derive(Clone, Debug)]
pub struct CodeValues {
    /// By code: the to-move and waiting values side by side, so that a
    /// change reads one cache line. (Numbering codes densely and keeping
    /// only the distinct pairs, about a thousand for an evaluation by
    /// shape, halved the first-level cache misses but cost more
    /// instructions than the misses did.)
    pairs: Box<[[i32; 2]]>,
    /// These values with renju black's forbidden shapes worth nothing,
    /// made once for every search that sums them under renju.
    renju_black: OnceLock<Arc<CodeValues>>,
}

impl PartialEq for CodeValues {
    fn eq(&self, other: &CodeValues) -> bool {
        self.pairs == other.pairs
    }
}

impl Eq for CodeValues {}

/// Values that a tracker cannot sum.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeValuesError {
    /// A table of another length than one value per code.
    #[error("{found} values, not one per code ({CODES})")]
    Length {
        /// The length given.
        found: usize,
    },
    /// The code 0 (marked cells among them) given a value.
    #[error("the empty code is worth {0}, not 0")]
    EmptyCode(i32),
    /// A value beyond `MAX_CODE_VALUE` (±1,000,000).
    #[error("code {code} is worth {value}, beyond ±{MAX_CODE_VALUE}")]
    TooLarge {
        /// The code.
        code: usize,
        /// Its value.
        value: i32,
    },
}

impl CodeValues {
    /// Values from two tables indexed by code.
    ///
    /// # Errors
    /// [`CodeValuesError`] if a table is not one value per code, gives the
    /// empty code a value, or holds a value beyond `MAX_CODE_VALUE`.
    pub fn new(to_move: Vec<i32>, waiting: Vec<i32>) -> Result<CodeValues, CodeValuesError> {
        for table in [&to_move, &waiting] {
            if table.len() != CODES {
                return Err(CodeValuesError::Length { found: table.len() });
            }
            if table[0] != 0 {
                return Err(CodeValuesError::EmptyCode(table[0]));
            }
            if let Some((code, &value)) =
                table.iter().enumerate().find(|(_, value)| value.abs() > MAX_CODE_VALUE)
            {
                return Err(CodeValuesError::TooLarge { code, value });
            }
        }
        let pairs = to_move.into_iter().zip(waiting).map(|(a, b)| [a, b]).collect();
        Ok(CodeValues { pairs, renju_black: OnceLock::new() })
    }

    /// These values with every code `drop` says set to nothing.
    #[must_use]
    pub fn without(&self, drop: impl Fn(Code) -> bool) -> CodeValues {
        let pairs = self
            .pairs
            .iter()
            .enumerate()
            .map(|(code, &pair)| if drop(code as Code) { [0, 0] } else { pair })
            .collect();
        CodeValues { pairs, renju_black: OnceLock::new() }
    }

    /// These values as renju's black sums them: its forbidden shapes
    /// worth nothing. Made on first use and kept.
    #[must_use]
    pub fn for_renju_black(&self) -> Arc<CodeValues> {
        Arc::clone(
            self.renju_black
                .get_or_init(|| Arc::new(self.without(|code| forbidden_shapes()[plain_code(code)]))),
        )
    }

    /// What a cell of this code is worth to its side when that side moves next.
    #[inline]
    #[must_use]
    pub fn to_move(&self, code: Code) -> i32 {
        self.pairs[usize::from(code)][0]
    }

    /// What a cell of this code is worth to its side when the opponent moves next.
    #[inline]
    #[must_use]
    pub fn waiting(&self, code: Code) -> i32 {
        self.pairs[usize::from(code)][1]
    }

    /// Both values of a cell of this code: to move, then waiting.
    #[inline]
    #[must_use]
    pub fn both(&self, code: Code) -> [i32; 2] {
        self.pairs[usize::from(code)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_cannot_be_summed_are_refused() {
        let zeros = || vec![0; CODES];
        assert!(CodeValues::new(zeros(), zeros()).is_ok());
        assert_eq!(CodeValues::new(vec![0; 3], zeros()), Err(CodeValuesError::Length { found: 3 }));
        let mut empty = zeros();
        empty[0] = 5;
        assert_eq!(CodeValues::new(zeros(), empty), Err(CodeValuesError::EmptyCode(5)));
        let mut huge = zeros();
        huge[9] = -MAX_CODE_VALUE - 1;
        assert!(matches!(CodeValues::new(huge, zeros()), Err(CodeValuesError::TooLarge { code: 9, .. })));
    }

    #[test]
    fn renju_blacks_values_are_made_once() {
        let mut ones = vec![1; CODES];
        ones[0] = 0;
        let values = CodeValues::new(ones.clone(), ones).unwrap();
        let (first, second) = (values.for_renju_black(), values.for_renju_black());
        assert!(Arc::ptr_eq(&first, &second), "one table for every search");
        assert_ne!(*first, values, "black's forbidden shapes are worth nothing");
    }
}
