//! The vocabulary of [`super::Threats`]: what the line through an empty
//! cell becomes if a side plays there ([`Pattern`], and finer, for
//! evaluation, [`FinePattern`]), and what a move makes over its four
//! directions ([`CellClass`]).

/// What the line through an empty cell in one direction becomes if a side
/// plays there. Ordered from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing: no five can ever be made through the cell on this line,
    /// or it is more than three moves away.
    None = 0,
    /// Two more moves make at best a four.
    Two,
    /// Two more moves can make an open four.
    OpenTwo,
    /// One more move makes at best a four.
    Three,
    /// One more move can make an open four.
    OpenThree,
    /// One cell then completes a five.
    Four,
    /// Two or more cells then complete a five.
    OpenFour,
    /// The move completes a five.
    Five,
}

impl Pattern {
    /// Every pattern, weakest first.
    pub const ALL: [Pattern; 8] = [
        Pattern::None,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
    ];
    /// How many patterns there are.
    pub const NUM: usize = 8;

    /// The pattern with this index in [`Pattern::ALL`].
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> Pattern {
        Pattern::ALL[index as usize & 7]
    }

    /// The pattern one move weaker: what a line is whose best next move
    /// makes `self`.
    pub(super) const fn weaker(self) -> Pattern {
        match self {
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four => Pattern::Three,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::Three => Pattern::Two,
            _ => Pattern::None,
        }
    }

    /// The lower-case name, such as `open three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::None => "none",
            Pattern::Two => "two",
            Pattern::OpenTwo => "open two",
            Pattern::Three => "three",
            Pattern::OpenThree => "open three",
            Pattern::Four => "four",
            Pattern::OpenFour => "open four",
            Pattern::Five => "five",
        }
    }
}

/// A [`Pattern`] told apart further, for evaluations that learn a value
/// per cell shape: tactics need only the eight patterns, a learned table
/// can tell open twos and threes apart by how many moves take them a
/// step further. Ordered from weakest to strongest; each belongs to one
/// pattern ([`FinePattern::pattern`]), in the same order.
///
/// (Telling a none with room for a five from one without was tried: it
/// changes a third more codes a move, mostly on cells far from the
/// fight, and slowed the tracker more than the other refinements
/// together.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum FinePattern {
    /// [`Pattern::None`] (a marked cell's, too).
    None = 0,
    /// [`Pattern::Two`].
    Two,
    /// An open two that one or two moves make an open three.
    OpenTwo,
    /// An open two that three moves make an open three.
    OpenTwo3,
    /// An open two that four or more moves make an open three.
    OpenTwo4,
    /// [`Pattern::Three`].
    Three,
    /// An open three that one move makes an open four.
    OpenThree,
    /// An open three that two or more moves make an open four.
    StrongThree,
    /// [`Pattern::Four`].
    Four,
    /// [`Pattern::OpenFour`].
    OpenFour,
    /// [`Pattern::Five`].
    Five,
}

impl FinePattern {
    /// Every fine pattern, weakest first.
    pub const ALL: [FinePattern; 11] = [
        FinePattern::None,
        FinePattern::Two,
        FinePattern::OpenTwo,
        FinePattern::OpenTwo3,
        FinePattern::OpenTwo4,
        FinePattern::Three,
        FinePattern::OpenThree,
        FinePattern::StrongThree,
        FinePattern::Four,
        FinePattern::OpenFour,
        FinePattern::Five,
    ];
    /// How many fine patterns there are.
    pub const NUM: usize = 11;

    /// The fine pattern with this index in [`FinePattern::ALL`] (indices
    /// past the last, which no code holds, read as the last).
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> FinePattern {
        let index = index as usize;
        FinePattern::ALL[if index < FinePattern::NUM { index } else { FinePattern::NUM - 1 }]
    }

    /// The pattern it refines.
    #[inline]
    #[must_use]
    pub const fn pattern(self) -> Pattern {
        match self {
            FinePattern::None => Pattern::None,
            FinePattern::Two => Pattern::Two,
            FinePattern::OpenTwo | FinePattern::OpenTwo3 | FinePattern::OpenTwo4 => Pattern::OpenTwo,
            FinePattern::Three => Pattern::Three,
            FinePattern::OpenThree | FinePattern::StrongThree => Pattern::OpenThree,
            FinePattern::Four => Pattern::Four,
            FinePattern::OpenFour => Pattern::OpenFour,
            FinePattern::Five => Pattern::Five,
        }
    }

    /// The lower-case name, such as `strong three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FinePattern::None => "none",
            FinePattern::Two => "two",
            FinePattern::OpenTwo => "open two",
            FinePattern::OpenTwo3 => "open two/3",
            FinePattern::OpenTwo4 => "open two/4",
            FinePattern::Three => "three",
            FinePattern::OpenThree => "open three",
            FinePattern::StrongThree => "strong three",
            FinePattern::Four => "four",
            FinePattern::OpenFour => "open four",
            FinePattern::Five => "five",
        }
    }

    /// What a line whose best next move makes `best` is, told apart by
    /// how that line's next moves went: `open_threes` and `open_fours`
    /// of them make those.
    pub(super) const fn refine(best: Pattern, open_threes: u32, open_fours: u32) -> FinePattern {
        match best {
            Pattern::None => FinePattern::None,
            Pattern::Two => FinePattern::Two,
            Pattern::OpenTwo => match open_threes {
                0..=2 => FinePattern::OpenTwo,
                3 => FinePattern::OpenTwo3,
                _ => FinePattern::OpenTwo4,
            },
            Pattern::Three => FinePattern::Three,
            Pattern::OpenThree if open_fours >= 2 => FinePattern::StrongThree,
            Pattern::OpenThree => FinePattern::OpenThree,
            Pattern::Four => FinePattern::Four,
            Pattern::OpenFour => FinePattern::OpenFour,
            Pattern::Five => FinePattern::Five,
        }
    }
}

impl Pattern {
    /// The fine pattern that stands for this pattern where only the
    /// pattern is known ([`super::code_of`]): open two and open three as their
    /// plainest, the others as themselves.
    #[inline]
    #[must_use]
    pub const fn plainest(self) -> FinePattern {
        match self {
            Pattern::None => FinePattern::None,
            Pattern::Two => FinePattern::Two,
            Pattern::OpenTwo => FinePattern::OpenTwo,
            Pattern::Three => FinePattern::Three,
            Pattern::OpenThree => FinePattern::OpenThree,
            Pattern::Four => FinePattern::Four,
            Pattern::OpenFour => FinePattern::OpenFour,
            Pattern::Five => FinePattern::Five,
        }
    }
}

/// What a move on an empty cell makes over its four directions. Ordered
/// from weakest to strongest threat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum CellClass {
    /// Nothing better than a two.
    None = 0,
    /// A two (open or not) in one direction.
    Two,
    /// Open twos in two or more directions.
    DoubleTwo,
    /// A three that can only become a four.
    Three,
    /// One open three.
    OpenThree,
    /// One four, and no open three beside it.
    Four,
    /// Two or more open threes: wins unless answered by fours.
    DoubleThree,
    /// A four and an open three in another direction.
    FourThree,
    /// Fours in two directions.
    DoubleFour,
    /// An open four: two cells complete a five.
    OpenFour,
    /// Completes a five: wins at once.
    Five,
}

impl CellClass {
    /// Every class, weakest first.
    pub const ALL: [CellClass; 11] = [
        CellClass::None,
        CellClass::Two,
        CellClass::DoubleTwo,
        CellClass::Three,
        CellClass::OpenThree,
        CellClass::Four,
        CellClass::DoubleThree,
        CellClass::FourThree,
        CellClass::DoubleFour,
        CellClass::OpenFour,
        CellClass::Five,
    ];
    /// How many classes there are.
    pub const NUM: usize = 11;

    /// The class of a cell whose four directions have these patterns.
    #[must_use]
    pub fn combine(patterns: [Pattern; 4]) -> CellClass {
        let mut count = [0_u8; Pattern::NUM];
        for pattern in patterns {
            count[pattern as usize] += 1;
        }
        let at = |pattern: Pattern| count[pattern as usize];
        if at(Pattern::Five) > 0 {
            return CellClass::Five;
        }
        if at(Pattern::OpenFour) > 0 {
            return CellClass::OpenFour;
        }
        match (at(Pattern::Four), at(Pattern::OpenThree)) {
            (2.., _) => CellClass::DoubleFour,
            (1, 1..) => CellClass::FourThree,
            (0, 2..) => CellClass::DoubleThree,
            (1, 0) => CellClass::Four,
            (0, 1) => CellClass::OpenThree,
            _ if at(Pattern::Three) > 0 => CellClass::Three,
            _ if at(Pattern::OpenTwo) >= 2 => CellClass::DoubleTwo,
            _ if at(Pattern::OpenTwo) + at(Pattern::Two) > 0 => CellClass::Two,
            _ => CellClass::None,
        }
    }

    /// The lower-case name, such as `four-three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CellClass::None => "none",
            CellClass::Two => "two",
            CellClass::DoubleTwo => "double two",
            CellClass::Three => "three",
            CellClass::OpenThree => "open three",
            CellClass::Four => "four",
            CellClass::DoubleThree => "double three",
            CellClass::FourThree => "four-three",
            CellClass::DoubleFour => "double four",
            CellClass::OpenFour => "open four",
            CellClass::Five => "five",
        }
    }
}
