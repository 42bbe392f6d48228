//! Hand-set weights: what a pattern means for the side that plays the
//! candidate cell, as a number.
//!
//! With the candidate placed, the pattern is scored by the threat it
//! makes, strongest first:
//!
//! - an open four: two or more cells would each complete k in a row
//!   (`50·S`);
//! - a four: exactly one such cell (`5·S`);
//! - an open three: one more mark could make an open four (`2·S`);
//! - otherwise the room to grow: every k-cell segment through the
//!   candidate with `m` own marks (the candidate included) adds `4^(m−1)`.
//!
//! `S = k·4^(k−3)` is the most the room term can reach, so each threat
//! outranks any amount of room. The classic family cannot see the
//! opponent, so its patterns are scored as if every other cell were
//! empty; the ternary family sees blocks and scores only the open cells.

use crate::table::{Family, Line, PatternTable, reverse};

/// The hand-set weight of every pattern of `table`, in weight order.
pub(crate) fn weights(table: &PatternTable) -> Vec<i32> {
    let k = table.k();
    let len = table.window_len();
    table
        .patterns()
        .iter()
        .map(|&pattern| {
            let line = match table.family() {
                Family::Classic => Line::from_masks(reverse(pattern, len), 0, k),
                Family::Ternary => {
                    let (mut own, mut blocked, mut rest) = (0, 0, pattern);
                    for p in (0..len).rev() {
                        match rest % 3 {
                            1 => own |= 1 << p,
                            2 => blocked |= 1 << p,
                            _ => {}
                        }
                        rest /= 3;
                    }
                    Line::from_masks(own, blocked, k)
                }
            };
            value(&line, k)
        })
        .collect()
}

/// The hand-set value of one view of a line.
fn value(line: &Line, k: u32) -> i32 {
    let k = k as usize;
    let room_max = k as i32 * 4i32.pow(k.saturating_sub(3) as u32);
    let mut cells: Vec<bool> = line.left.iter().rev().copied().collect();
    let candidate = cells.len();
    cells.push(true);
    cells.extend(&line.right);

    let now = completions(&cells, candidate, k);
    if now >= 2 {
        return 50 * room_max;
    }
    if now == 1 {
        return 5 * room_max;
    }
    let makes_open_four = (0..cells.len()).filter(|&e| !cells[e]).any(|e| {
        let mut next = cells.clone();
        next[e] = true;
        completions(&next, candidate, k) >= 2
    });
    if makes_open_four {
        return 2 * room_max;
    }
    segments(cells.len(), candidate, k)
        .map(|segment| {
            let marks = cells[segment].iter().filter(|own| **own).count();
            4i32.pow(marks as u32 - 1)
        })
        .sum()
}

/// The k-cell segments of a line of `len` cells that hold `candidate`.
fn segments(len: usize, candidate: usize, k: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let first = (candidate + 1).saturating_sub(k);
    let last = if len >= k { candidate.min(len - k) } else { 0 };
    let any = len >= k;
    (first..=last).filter(move |_| any).map(move |start| start..start + k)
}

/// How many empty cells would each complete k in a row with the candidate.
fn completions(cells: &[bool], candidate: usize, k: usize) -> usize {
    let mut cells_that_complete: Vec<usize> = segments(cells.len(), candidate, k)
        .filter_map(|segment| {
            let empty: Vec<usize> = segment.filter(|&i| !cells[i]).collect();
            (empty.len() == 1).then(|| empty[0])
        })
        .collect();
    cells_that_complete.sort_unstable();
    cells_that_complete.dedup();
    cells_that_complete.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        let (left, right) = text.split_once('_').unwrap();
        let read = |cells: &str| cells.chars().map(|c| c == 'x').collect::<Vec<bool>>();
        let mut left = read(left);
        left.reverse();
        Line { left, right: read(right) }
    }

    #[test]
    fn threats_outrank_room() {
        let k = 5;
        let s = 5 * 16;
        assert_eq!(value(&line(".xxx_...."), k), 50 * s, "open four");
        assert_eq!(value(&line("xxx_."), k), 5 * s, "four against a block");
        assert_eq!(value(&line("..xx_...."), k), 2 * s, "open three");
        assert_eq!(value(&line("...x_x..."), k), 2 * s, "split open three");
        // One mark next to the candidate, open on both sides: five
        // segments, four of them with both marks.
        assert_eq!(value(&line("...x_...."), k), 4 * 4 + 1);
        assert_eq!(value(&line("...._...."), k), 5);
        assert_eq!(value(&line("_...."), k), 1);
    }

    #[test]
    fn default_tables_rank_as_meant() {
        for family in Family::ALL {
            let table = PatternTable::new(family, 5).unwrap();
            let weights = weights(table);
            assert_eq!(weights.len(), table.len());
            assert!(weights.iter().all(|&w| (0..=50 * 80).contains(&w)));
        }
    }
}
