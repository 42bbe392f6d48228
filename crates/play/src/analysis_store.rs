//! The interface through which a search reads and writes an analysis
//! store (the `analysis-db` crate's database implements it), so that no
//! engine depends on how the store keeps its records.

use board::Position;

/// What a player (or a search) concluded of a position, for the side to
/// move in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Label {
    /// Nothing concluded.
    #[default]
    None,
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// A draw.
    Draw,
    /// The move that led here is the only one: it is played at once.
    Forced,
    /// The move that led here is not to be considered.
    Excluded,
}

impl Label {
    /// Every label, in the order their numbers run.
    pub const ALL: [Label; 6] =
        [Label::None, Label::Win, Label::Loss, Label::Draw, Label::Forced, Label::Excluded];

    /// Its number in a file.
    #[must_use]
    pub fn number(self) -> i64 {
        Label::ALL.iter().position(|&label| label == self).unwrap_or(0) as i64
    }

    /// The label numbered `number`, if any.
    #[must_use]
    pub fn from_number(number: i64) -> Option<Label> {
        usize::try_from(number).ok().and_then(|i| Label::ALL.get(i).copied())
    }

    /// Its name, as people write it: `none`, `win`, `loss`, `draw`,
    /// `forced`, `excluded`.
    #[must_use]
    pub fn name(self) -> &'static str {
        LABEL_NAMES[self.number() as usize]
    }
}

/// The labels' names, in the order of [`Label::ALL`].
const LABEL_NAMES: [&str; 6] = ["none", "win", "loss", "draw", "forced", "excluded"];

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Label {
    type Err = String;

    /// A label by its name, in any case.
    fn from_str(text: &str) -> Result<Label, String> {
        LABEL_NAMES
            .iter()
            .position(|name| name.eq_ignore_ascii_case(text.trim()))
            .map(|i| Label::ALL[i])
            .ok_or_else(|| format!("{text:?} is not a label: one of {}", LABEL_NAMES.join(", ")))
    }
}

/// Which side of the true value a stored value lies on, as a search's
/// transposition table keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value itself.
    #[default]
    Exact,
    /// At least the value (the search cut off above it).
    Lower,
    /// At most the value.
    Upper,
}

impl Bound {
    /// Every bound, in the order their numbers run.
    pub const ALL: [Bound; 3] = [Bound::Exact, Bound::Lower, Bound::Upper];

    /// Its number in a file.
    #[must_use]
    pub fn number(self) -> i64 {
        Bound::ALL.iter().position(|&bound| bound == self).unwrap_or(0) as i64
    }

    /// The bound numbered `number`, if any.
    #[must_use]
    pub fn from_number(number: i64) -> Option<Bound> {
        usize::try_from(number).ok().and_then(|i| Bound::ALL.get(i).copied())
    }

    /// Its name: `exact`, `lower` or `upper`.
    #[must_use]
    pub fn name(self) -> &'static str {
        BOUND_NAMES[self.number() as usize]
    }
}

/// The bounds' names, in the order of [`Bound::ALL`].
const BOUND_NAMES: [&str; 3] = ["exact", "lower", "upper"];

impl std::str::FromStr for Bound {
    type Err = String;

    /// A bound by its name, in any case.
    fn from_str(text: &str) -> Result<Bound, String> {
        BOUND_NAMES
            .iter()
            .position(|name| name.eq_ignore_ascii_case(text.trim()))
            .map(|i| Bound::ALL[i])
            .ok_or_else(|| format!("{text:?} is not a bound: one of {}", BOUND_NAMES.join(", ")))
    }
}

/// What a store says of a position, as far as a search reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreEntry {
    /// The label.
    pub label: Label,
    /// A value for the side to move, in the searching engine's scale (a
    /// proven win or loss as `PROVEN_WIN − n` or its negative), if any.
    pub value: Option<i32>,
    /// The depth the value was searched to, in plies.
    pub depth: Option<u32>,
    /// Which side of the true value `value` lies on.
    pub bound: Bound,
}

/// A store of analyses a search consults and, unless it is read-only,
/// writes what it found back to.
pub trait AnalysisStore: Send {
    /// What the store keeps of `pos` (or of a mirror image of it).
    fn entry(&mut self, pos: &Position) -> Option<StoreEntry>;

    /// Keeps `entry` for `pos`, leaving what else the store keeps of it
    /// (comments, texts) as it was, a label it has when `entry` brings
    /// none, and a value searched deeper than `entry`'s.
    ///
    /// # Errors
    /// Why it could not be kept (a read-only store, a failed write).
    fn keep(&mut self, pos: &Position, entry: &StoreEntry) -> Result<(), String>;

    /// Whether [`AnalysisStore::keep`] writes.
    fn writes(&self) -> bool;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_back_by_name_and_number() {
        for label in Label::ALL {
            assert_eq!(label.to_string().parse::<Label>(), Ok(label));
            assert_eq!(Label::from_number(label.number()), Some(label));
        }
        assert_eq!("WIN".parse::<Label>(), Ok(Label::Win));
        assert!("maybe".parse::<Label>().unwrap_err().contains("one of none, win"));
        assert_eq!(Label::from_number(6), None);
    }
}
