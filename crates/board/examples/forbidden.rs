//! Black's renju forbidden points of positions read from stdin, one a
//! line: the stones in the order they were put, black first, as `x,y`
//! from 0 separated by spaces, on 15×15. Each answer is a line as a
//! Gomocup brain answers `YXSHOWFORBID`: `FORBID` then `xxyy` for every
//! point, then `.`; `--why` adds the reason of each.
//!
//! ```sh
//! echo "7,7 0,0 8,8 0,1 9,7 0,2 9,9" | cargo run -q -p board --example forbidden -- --why
//! ```

use std::io::{self, BufRead, Write};

use board::{Bitboard, Rules, renju};

fn main() -> io::Result<()> {
    let why = std::env::args().any(|arg| arg == "--why");
    let rules = Rules::gomoku15();
    let mut out = io::stdout().lock();
    'lines: for (number, line) in io::stdin().lock().lines().enumerate() {
        let line = line?;
        let mut stones = [Bitboard::EMPTY; 2];
        for (i, word) in line.split_whitespace().enumerate() {
            let cell = word
                .split_once(',')
                .and_then(|(x, y)| rules.cell(x.trim().parse().ok()?, y.trim().parse().ok()?))
                .filter(|&cell| !stones[0].contains(cell) && !stones[1].contains(cell));
            let Some(cell) = cell else {
                writeln!(
                    out,
                    "ERROR line {}: stone {} {word:?} is off the board or taken",
                    number + 1,
                    i + 1
                )?;
                continue 'lines;
            };
            stones[i % 2].insert(cell);
        }
        write!(out, "FORBID ")?;
        for cell in rules.cells() {
            if let Some(reason) = renju::forbidden_among(&rules, stones[0], stones[1], cell) {
                write!(out, "{:02}{:02}", cell.x(), cell.y())?;
                if why {
                    write!(out, "({reason})")?;
                }
            }
        }
        writeln!(out, ".")?;
    }
    Ok(())
}
