//! The renju openings: the 26 standard ways the first three stones are
//! put under the RIF's rules — black at the centre, white beside it
//! (directly above: the 13 *direct* openings, or diagonally: the 13
//! *indirect*), black's second stone within the central 5×5 — each with
//! its number and its traditional name. Every other legal three-stone
//! start is one of these turned or mirrored, so tournaments play from
//! them, and opening rules (Soosõrv, Taraguchi) name them.

use crate::{Cell, Rules};

/// Whether white's first stone is beside black's (direct) or diagonal to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningKind {
    /// White directly above the centre: `h8 h9 …`.
    Direct,
    /// White diagonally above it: `h8 i9 …`.
    Indirect,
}

/// One of the 26 standard openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StandardOpening {
    /// 1 to 13 within its kind.
    pub number: u8,
    /// Direct or indirect.
    pub kind: OpeningKind,
    /// Its traditional (Japanese) name, as the RIF lists it.
    pub name: &'static str,
    /// Black's second stone from the centre: columns right, rows up.
    third: (i8, i8),
}

impl StandardOpening {
    /// Its short code: `4D` (Kagetsu), `2I` (Kyogetsu).
    #[must_use]
    pub fn code(&self) -> String {
        let kind = match self.kind {
            OpeningKind::Direct => 'D',
            OpeningKind::Indirect => 'I',
        };
        format!("{}{kind}", self.number)
    }

    /// Its three stones (black, white, black) on `rules`' board, about
    /// its centre; `None` where the board is too small for them.
    #[must_use]
    pub fn moves(&self, rules: &Rules) -> Option<[Cell; 3]> {
        let (cx, cy) = (i32::from(rules.width() / 2), i32::from(rules.height() / 2));
        // Rows count up on a renju board: a row up is one less in y.
        let at = |(dx, dy): (i8, i8)| rules.cell(cx + i32::from(dx), cy - i32::from(dy));
        let white = match self.kind {
            OpeningKind::Direct => (0, 1),
            OpeningKind::Indirect => (1, 1),
        };
        Some([at((0, 0))?, at(white)?, at(self.third)?])
    }
}

const fn direct(number: u8, name: &'static str, third: (i8, i8)) -> StandardOpening {
    StandardOpening { number, kind: OpeningKind::Direct, name, third }
}

const fn indirect(number: u8, name: &'static str, third: (i8, i8)) -> StandardOpening {
    StandardOpening { number, kind: OpeningKind::Indirect, name, third }
}

/// The 26 standard openings, 1D to 13D then 1I to 13I (on 15×15 black at
/// h8, white at h9 or i9, the third stone as named).
pub const STANDARD_OPENINGS: [StandardOpening; 26] = [
    direct(1, "Kansei", (0, 2)),        // h10
    direct(2, "Keigetsu", (1, 2)),      // i10
    direct(3, "Sosei", (2, 2)),         // j10
    direct(4, "Kagetsu", (1, 1)),       // i9
    direct(5, "Zangetsu", (2, 1)),      // j9
    direct(6, "Ugetsu", (1, 0)),        // i8
    direct(7, "Kinsei", (2, 0)),        // j8
    direct(8, "Shogetsu", (0, -1)),     // h7
    direct(9, "Kyugetsu", (1, -1)),     // i7
    direct(10, "Shingetsu", (2, -1)),   // j7
    direct(11, "Zuisei", (0, -2)),      // h6
    direct(12, "Sangetsu", (1, -2)),    // i6
    direct(13, "Yusei", (2, -2)),       // j6
    indirect(1, "Chosei", (2, 2)),      // j10
    indirect(2, "Kyogetsu", (2, 1)),    // j9
    indirect(3, "Kosei", (2, 0)),       // j8
    indirect(4, "Suigetsu", (2, -1)),   // j7
    indirect(5, "Ryusei", (2, -2)),     // j6
    indirect(6, "Ungetsu", (1, 0)),     // i8
    indirect(7, "Hogetsu", (1, -1)),    // i7
    indirect(8, "Rangetsu", (1, -2)),   // i6
    indirect(9, "Gingetsu", (0, -1)),   // h7
    indirect(10, "Myojo", (0, -2)),     // h6
    indirect(11, "Shagetsu", (-1, -1)), // g7
    indirect(12, "Meigetsu", (-1, -2)), // g6
    indirect(13, "Suisei", (-2, -2)),   // f6
];

/// The standard opening `text` names: its code (`4D`, `13i`) or its name
/// (`Kagetsu`, any case).
#[must_use]
pub fn standard_opening(text: &str) -> Option<&'static StandardOpening> {
    let text = text.trim();
    STANDARD_OPENINGS
        .iter()
        .find(|opening| opening.code().eq_ignore_ascii_case(text) || opening.name.eq_ignore_ascii_case(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Transform};

    fn names(opening: &StandardOpening) -> String {
        let rules = Rules::renju();
        opening
            .moves(&rules)
            .unwrap()
            .iter()
            .map(|cell| cell.name(&rules).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_openings_are_where_the_rif_puts_them() {
        assert_eq!(names(&STANDARD_OPENINGS[0]), "h8 h9 h10");
        assert_eq!(names(standard_opening("kagetsu").unwrap()), "h8 h9 i9");
        assert_eq!(names(standard_opening("13D").unwrap()), "h8 h9 j6");
        assert_eq!(names(standard_opening("1i").unwrap()), "h8 i9 j10");
        assert_eq!(names(standard_opening("Suisei").unwrap()), "h8 i9 f6");
        assert_eq!(standard_opening("2I").unwrap().name, "Kyogetsu");
        assert_eq!(standard_opening("14D"), None);
        assert_eq!(standard_opening("Kagetsu ").unwrap().code(), "4D");
    }

    #[test]
    fn the_26_are_every_legal_start_once_up_to_symmetry() {
        // The slow reference: every black stone within 5x5 of the centre,
        // with white beside the centre, each compared with the 26 under
        // all eight symmetries.
        let rules = Rules::renju();
        let canonical = |stones: [Cell; 3]| {
            let mut keys: Vec<Vec<Cell>> = Transform::ALL
                .iter()
                .map(|transform| {
                    let mut black = [transform.apply(stones[0], &rules), transform.apply(stones[2], &rules)];
                    black.sort();
                    vec![black[0], black[1], transform.apply(stones[1], &rules)]
                })
                .collect();
            keys.sort();
            keys[0].clone()
        };
        let standard: Vec<Vec<Cell>> =
            STANDARD_OPENINGS.iter().map(|opening| canonical(opening.moves(&rules).unwrap())).collect();
        for (i, key) in standard.iter().enumerate() {
            assert!(!standard[..i].contains(key), "{} repeats another", STANDARD_OPENINGS[i].code());
        }
        let centre = Cell::new(7, 7);
        for white in [(7, 6), (8, 6), (8, 7), (8, 8), (7, 8), (6, 8), (6, 7), (6, 6)] {
            let white = Cell::new(white.0, white.1);
            for y in 5..=9 {
                for x in 5..=9 {
                    let third = Cell::new(x, y);
                    if third == centre || third == white {
                        continue;
                    }
                    assert!(
                        Position::from_setup(
                            rules,
                            [centre, third].into_iter().collect(),
                            [white].into_iter().collect()
                        )
                        .is_ok()
                    );
                    assert!(standard.contains(&canonical([centre, white, third])), "{white:?} {third:?}");
                }
            }
        }
    }
}
