//! The shape vocabulary of the code family and of move policies: a
//! cell's four fine line patterns as a multiset (a *shape*, 1,001 a side)
//! or its four plain patterns (a *plain shape*, 330), each by index and by
//! name, as weights files and policies name them.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use board::threats::{Code, FinePattern, Pattern, fine_patterns_of};

use crate::weights::WeightsError;

/// How many shapes there are: multisets of four of the eleven fine
/// patterns.
pub const SHAPES: usize = 1001;

/// How many plain shapes there are: multisets of four of the eight
/// patterns (what a move policy and a format-1 weights file name).
pub const PLAIN_SHAPES: usize = 330;

/// The multisets of four of `patterns` (ordered weakest first), strongest
/// first within a multiset, the all-weakest first: a shape's index is its
/// place here.
fn multisets<P: Copy>(patterns: &[P]) -> Vec<[P; 4]> {
    let mut list = Vec::new();
    for a in 0..patterns.len() {
        for b in 0..=a {
            for c in 0..=b {
                for d in 0..=c {
                    list.push([a, b, c, d].map(|i| patterns[i]));
                }
            }
        }
    }
    list
}

/// Every shape's fine patterns, in shape order.
pub(crate) fn shapes() -> &'static [[FinePattern; 4]] {
    static LIST: OnceLock<Vec<[FinePattern; 4]>> = OnceLock::new();
    LIST.get_or_init(|| multisets(&FinePattern::ALL))
}

/// Every plain shape's patterns, in plain shape order.
pub(crate) fn plain_shapes() -> &'static [[Pattern; 4]] {
    static LIST: OnceLock<Vec<[Pattern; 4]>> = OnceLock::new();
    LIST.get_or_init(|| multisets(&Pattern::ALL))
}

/// By code: its shape's and its plain shape's indices.
fn shapes_of_code() -> &'static [(u16, u16)] {
    static TABLE: OnceLock<Vec<(u16, u16)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let fine: BTreeMap<[FinePattern; 4], u16> =
            shapes().iter().enumerate().map(|(i, &shape)| (shape, i as u16)).collect();
        let plain: BTreeMap<[Pattern; 4], u16> =
            plain_shapes().iter().enumerate().map(|(i, &shape)| (shape, i as u16)).collect();
        (0..=Code::MAX)
            .map(|code| {
                let mut patterns = fine_patterns_of(code);
                patterns.sort_unstable_by(|a, b| b.cmp(a));
                (fine[&patterns], plain[&patterns.map(FinePattern::pattern)])
            })
            .collect()
    })
}

/// The shape of a code.
#[inline]
#[must_use]
pub fn shape(code: Code) -> usize {
    usize::from(shapes_of_code()[usize::from(code)].0)
}

/// The plain shape of a code: its patterns as a multiset.
#[inline]
#[must_use]
pub fn plain_shape(code: Code) -> usize {
    usize::from(shapes_of_code()[usize::from(code)].1)
}

/// The name of shape `index`: its fine patterns, strongest first, joined
/// by `+`, leaving out "none" (`""` for the empty shape).
///
/// # Panics
/// If `index` is not below [`SHAPES`].
#[must_use]
pub fn shape_name(index: usize) -> String {
    let names: Vec<&str> =
        shapes()[index].iter().filter(|&&p| p != FinePattern::None).map(|&p| p.name()).collect();
    names.join("+")
}

/// The name of plain shape `index`: its patterns, strongest first,
/// joined by `+`, leaving out "none" (`""` for the empty shape).
///
/// # Panics
/// If `index` is not below [`PLAIN_SHAPES`].
#[must_use]
pub fn plain_shape_name(index: usize) -> String {
    let names: Vec<&str> =
        plain_shapes()[index].iter().filter(|&&p| p != Pattern::None).map(|&p| p.name()).collect();
    names.join("+")
}

/// The patterns of plain shape `index`, strongest first ("none" last).
///
/// # Panics
/// If `index` is not below [`PLAIN_SHAPES`].
#[must_use]
pub fn plain_shape_patterns(index: usize) -> [Pattern; 4] {
    plain_shapes()[index]
}

/// Names of shapes of one vocabulary: how many there are and each one's
/// name.
#[derive(Clone, Copy)]
pub(crate) struct Vocabulary {
    pub(crate) len: usize,
    pub(crate) name: fn(usize) -> String,
}

/// Shapes of fine patterns.
pub(crate) const FINE: Vocabulary = Vocabulary { len: SHAPES, name: shape_name };
/// Shapes of patterns.
pub(crate) const PLAIN: Vocabulary = Vocabulary { len: PLAIN_SHAPES, name: plain_shape_name };

impl Vocabulary {
    /// Every shape by its name.
    pub(crate) fn indices(self) -> BTreeMap<String, usize> {
        (0..self.len).map(|index| ((self.name)(index), index)).collect()
    }

    /// A table by shape as a file writes it: shape name to value, the
    /// empty shape left out.
    pub(crate) fn names_of_table(self, table: &[i32]) -> BTreeMap<String, i32> {
        (1..self.len).map(|index| ((self.name)(index), table[index])).collect()
    }

    /// A table by shape from a file's map `name` (the empty shape 0):
    /// every other shape named once.
    pub(crate) fn table_from_names(
        self,
        name: &str,
        named: &BTreeMap<String, i32>,
    ) -> Result<Vec<i32>, WeightsError> {
        let mut table = vec![0; self.len];
        let indices = self.indices();
        for (shape, &value) in named {
            let index = indices
                .get(shape)
                .copied()
                .filter(|&index| index > 0)
                .ok_or_else(|| WeightsError::CodeJson(format!("{name} names no shape {shape:?}")))?;
            table[index] = value;
        }
        if named.len() == self.len - 1 {
            Ok(table)
        } else {
            Err(WeightsError::CodeJson(format!(
                "{name} gives {} shapes, not every one of the {}",
                named.len(),
                self.len - 1
            )))
        }
    }
}

/// A table by plain shape spread over the shapes: each shape worth its
/// plain shape's value.
pub(crate) fn spread_plain(table: &[i32]) -> Vec<i32> {
    let plain: BTreeMap<[Pattern; 4], usize> =
        plain_shapes().iter().enumerate().map(|(i, &shape)| (shape, i)).collect();
    shapes().iter().map(|shape| table[plain[&shape.map(FinePattern::pattern)]]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::threats::code_of_fine;

    #[test]
    fn shapes_are_the_multisets_of_four_patterns() {
        assert_eq!(shapes().len(), SHAPES);
        assert_eq!(shape(0), 0);
        assert_eq!(shape_name(0), "");
        let code = board::threats::code_of([Pattern::Two, Pattern::None, Pattern::OpenThree, Pattern::Two]);
        assert_eq!(shape_name(shape(code)), "open three+two+two");
        let turned = board::threats::code_of([Pattern::OpenThree, Pattern::Two, Pattern::Two, Pattern::None]);
        assert_eq!(shape(code), shape(turned));
        let (fine, plain) = (FINE.indices(), PLAIN.indices());
        assert!((0..SHAPES).all(|index| fine[&shape_name(index)] == index));
        assert_eq!(plain_shapes().len(), PLAIN_SHAPES);
        assert!((0..PLAIN_SHAPES).all(|index| plain[&plain_shape_name(index)] == index));
        // Fine patterns tell apart what plain ones do not.
        let none = FinePattern::None;
        let strong = code_of_fine([FinePattern::StrongThree, FinePattern::OpenTwo3, none, none]);
        let open = code_of_fine([FinePattern::OpenThree, FinePattern::OpenTwo, none, none]);
        assert_ne!(shape(strong), shape(open));
        assert_eq!(plain_shape(strong), plain_shape(open));
        assert_eq!(shape_name(shape(strong)), "strong three+open two/3");
        assert_eq!(plain_shape_name(plain_shape(strong)), "open three+open two");
    }
}
