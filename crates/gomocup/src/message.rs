//! Reading what a brain says of its search. The protocol leaves
//! `MESSAGE` lines free text, but brains write the same few things in a
//! few shapes: ours `depth 10-23 ev 509 n 812034 … pv h8 i9`, others
//! `Depth 18-35 | Eval -112 | Node 3.3M | Time 980ms` and `Bestline H8 I9`.
//! This reads depth and selective depth, the evaluation (or `+M7` / `-M6`,
//! a win or loss in plies), nodes and the line, from any of them, as far
//! as they can be read; what cannot be read is left out.
//!
//! Brains write the line's cells as a column letter and a row number, but
//! count rows from the top or from the bottom; the move the brain answered
//! tells which (it starts the line, and the line must be playable). A
//! line that reads both ways is left out.

use board::{Cell, Position};
use play::Analysis;

/// The lines kept of one move's messages, and the length kept of each:
/// a brain that talks without end costs bounded memory.
pub(crate) const KEPT_LINES: usize = 64;
pub(crate) const KEPT_LENGTH: usize = 2048;

/// What the `MESSAGE` lines a brain sent while it chose `answer` in `pos`
/// said, read into an [`Analysis`] (later lines win); `None` if they said
/// nothing we read.
#[must_use]
pub fn read_messages(messages: &[String], pos: &Position, answer: Cell) -> Option<Analysis> {
    let mut analysis = Analysis { best_move: Some(answer), ..Analysis::default() };
    let mut said = false;
    for message in messages {
        said |= read_message(message, pos, answer, &mut analysis);
    }
    said.then_some(analysis)
}

/// Reads one message's text (without the word `MESSAGE`) into `analysis`;
/// whether it said anything we read.
fn read_message(text: &str, pos: &Position, answer: Cell, analysis: &mut Analysis) -> bool {
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == '|').filter(|word| !word.is_empty()).collect();
    let mut said = false;
    let mut i = 0;
    while i < words.len() {
        let key = words[i].trim_end_matches(':').to_ascii_lowercase();
        let next = words.get(i + 1).copied().unwrap_or("");
        match key.as_str() {
            "depth" => {
                if let Some((depth, selective)) = read_depths(next) {
                    analysis.depth = Some(depth);
                    analysis.selective_depth = selective.or(analysis.selective_depth);
                    said = true;
                }
            }
            "seldepth" | "sd" => {
                if let Ok(selective) = next.parse() {
                    analysis.selective_depth = Some(selective);
                    said = true;
                }
            }
            "ev" | "eval" | "score" => said |= read_value(next, analysis),
            "n" | "node" | "nodes" => {
                if let Some(nodes) = read_count(next) {
                    analysis.nodes = nodes;
                    said = true;
                }
            }
            "pv" | "bestline" | "line" => {
                let cells: Vec<&str> =
                    words[i + 1..].iter().copied().take_while(|w| read_cell(w).is_some()).collect();
                if let Some(line) = read_line(&cells, pos, answer) {
                    analysis.line = line;
                    said = true;
                }
                i += cells.len();
            }
            _ => {}
        }
        i += 1;
    }
    said
}

/// `18` or `18-35`: the depth and the selective depth.
fn read_depths(word: &str) -> Option<(u32, Option<u32>)> {
    match word.split_once('-') {
        Some((depth, selective)) => Some((depth.parse().ok()?, selective.parse().ok())),
        None => Some((word.parse().ok()?, None)),
    }
}

/// An evaluation (`-112`, `509.5`) or a proven result in plies (`+M7`,
/// `-M6`); whether it was one.
fn read_value(word: &str, analysis: &mut Analysis) -> bool {
    let (sign, rest) = match word.as_bytes().first() {
        Some(b'+') => (1, &word[1..]),
        Some(b'-') => (-1, &word[1..]),
        _ => (1, word),
    };
    if let Some(plies) = rest.strip_prefix(['M', 'm']) {
        let Ok(plies) = plies.parse::<i32>() else { return false };
        analysis.win_in = Some(sign * plies.max(1));
        return true;
    }
    match word.parse::<f64>() {
        Ok(value) if value.is_finite() => {
            analysis.value = Some(value);
            true
        }
        _ => false,
    }
}

/// A count such as `3328`, `369K` or `3.3M`.
fn read_count(word: &str) -> Option<u64> {
    let (number, scale) = match word.char_indices().last()? {
        (at, 'k' | 'K') => (&word[..at], 1e3),
        (at, 'm' | 'M') => (&word[..at], 1e6),
        (at, 'g' | 'G' | 'b' | 'B') => (&word[..at], 1e9),
        _ => (word, 1.0),
    };
    let value = number.parse::<f64>().ok()? * scale;
    (0.0..1e19).contains(&value).then_some(value as u64)
}

/// A cell as brains write it: a column letter and a row number from 1.
fn read_cell(word: &str) -> Option<(u8, u8)> {
    let mut chars = word.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let row: u8 = chars.as_str().parse().ok()?;
    Some((letter as u8 - b'a', row.checked_sub(1)?))
}

/// The line written as `cells`, its rows counted from the bottom or from
/// the top: whichever makes it start with `answer` and play from `pos`;
/// `None` if neither does, or both do and differ.
fn read_line(cells: &[&str], pos: &Position, answer: Cell) -> Option<Vec<Cell>> {
    let rules = *pos.rules();
    let read: Vec<(u8, u8)> = cells.iter().filter_map(|word| read_cell(word)).collect();
    let on_board = |(x, y): (u8, u8)| (x < rules.width() && y < rules.height()).then(|| Cell::new(x, y));
    let playable = |line: &[Cell]| {
        let mut pos = pos.clone();
        line.first() == Some(&answer) && line.iter().all(|&cell| pos.play(cell).is_ok())
    };
    let from_top: Option<Vec<Cell>> = read.iter().map(|&(x, row)| on_board((x, row))).collect();
    let from_bottom: Option<Vec<Cell>> =
        read.iter().map(|&(x, row)| on_board((x, rules.height().checked_sub(row + 1)?))).collect();
    match (from_bottom.filter(|line| playable(line)), from_top.filter(|line| playable(line))) {
        (Some(bottom), Some(top)) if bottom != top => None,
        (Some(line), _) | (None, Some(line)) => Some(line),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(messages: &[&str], answer: Cell) -> Option<Analysis> {
        let messages: Vec<String> = messages.iter().map(|m| (*m).to_owned()).collect();
        read_messages(&messages, &Position::new(board::Rules::gomoku15()), answer)
    }

    #[test]
    fn reads_the_reference_engines_lines() {
        // Rows counted from the top: G10 is x 6, y 9; J9 is x 9, y 8.
        let analysis = read(
            &["Speed 369K | Depth 18-35 | Eval -112 | Node 3.3M | Time 980ms", "Bestline G10 J9 H10"],
            Cell::new(6, 9),
        )
        .unwrap();
        assert_eq!((analysis.depth, analysis.selective_depth), (Some(18), Some(35)));
        assert_eq!(analysis.value, Some(-112.0));
        assert_eq!(analysis.nodes, 3_300_000);
        assert_eq!(analysis.line, vec![Cell::new(6, 9), Cell::new(9, 8), Cell::new(7, 9)]);
        // On the middle row both readings start right: a line that differs
        // between them is left out.
        assert!(read(&["Bestline G8 J9"], Cell::new(6, 7)).is_none());
        let mate = read(&["Depth 9-12 | Eval +M7 | Node 812"], Cell::new(0, 0)).unwrap();
        assert_eq!((mate.win_in, mate.value), (Some(7), None));
        assert_eq!(read(&["Eval -M6"], Cell::new(0, 0)).unwrap().win_in, Some(-6));
    }

    #[test]
    fn reads_our_own_brains_lines() {
        // Rows counted from the bottom: h9 is x 7, y 6; i10 one up and right.
        let analysis =
            read(&["depth 10-23 ev 509 n 812034 n/s 812034 tm 1000 pv h9 i10"], Cell::new(7, 6)).unwrap();
        assert_eq!((analysis.depth, analysis.selective_depth), (Some(10), Some(23)));
        assert_eq!((analysis.value, analysis.nodes), (Some(509.0), 812_034));
        assert_eq!(analysis.line, vec![Cell::new(7, 6), Cell::new(8, 5)]);
    }

    #[test]
    fn what_cannot_be_read_is_left_out() {
        assert!(read(&["hello", "Depth deep", "Eval NaN", "Node -3"], Cell::new(0, 0)).is_none());
        // A line that does not start with the answer is not trusted.
        let analysis = read(&["depth 4 pv a1 b2"], Cell::new(7, 7)).unwrap();
        assert!(analysis.line.is_empty() && analysis.depth == Some(4));
        // Off the board, a cell twice, or absurd.
        assert!(read(&["pv z99 a1"], Cell::new(0, 14)).is_none());
        assert!(read(&["pv a1 a1"], Cell::new(0, 14)).is_none());
        assert!(read(&["Node 1e30", "Depth 99999999999"], Cell::new(0, 0)).is_none());
    }
}
