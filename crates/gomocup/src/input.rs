//! A manager's input as lines: any line ending (LF, CRLF or a lone CR),
//! bytes that are not UTF-8 replaced rather than ending the input, and
//! lines longer than [`MAX_LINE`] refused rather than buffered.

use std::io::{self, BufRead};

/// The longest line read, in bytes; longer ones are skipped to their end.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A line, without its ending.
    Line(String),
    /// A line of this many bytes, too long to read.
    TooLong(usize),
}

/// Reads `input` to its end, handing each line to `emit` until it returns
/// `false`.
///
/// # Errors
/// Only if reading fails.
pub fn read_lines<R: BufRead>(mut input: R, mut emit: impl FnMut(Incoming) -> bool) -> io::Result<()> {
    let mut line = Vec::new();
    let mut length = 0usize;
    // A CR just ended a line: an LF right after it belongs to that ending.
    let mut after_cr = false;
    let finish = |line: &mut Vec<u8>, length: &mut usize| {
        let incoming = if *length > MAX_LINE {
            Incoming::TooLong(*length)
        } else {
            Incoming::Line(String::from_utf8_lossy(line).into_owned())
        };
        line.clear();
        *length = 0;
        incoming
    };
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let used = chunk.len();
        for &byte in chunk {
            match byte {
                b'\n' if after_cr => after_cr = false,
                b'\n' | b'\r' => {
                    after_cr = byte == b'\r';
                    if !emit(finish(&mut line, &mut length)) {
                        return Ok(());
                    }
                }
                _ => {
                    after_cr = false;
                    length += 1;
                    if length <= MAX_LINE {
                        line.push(byte);
                    }
                }
            }
        }
        input.consume(used);
    }
    if length > 0 {
        emit(finish(&mut line, &mut length));
    }
    Ok(())
}

pub use board::excerpt;

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Incoming> {
        let mut out = Vec::new();
        read_lines(bytes, |line| {
            out.push(line);
            true
        })
        .unwrap();
        out
    }

    fn line(text: &str) -> Incoming {
        Incoming::Line(text.to_owned())
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        assert_eq!(lines(b"A\nB\r\nC\rD"), [line("A"), line("B"), line("C"), line("D")]);
        assert_eq!(lines(b"A\r\r\nB\n\n"), [line("A"), line(""), line("B"), line("")]);
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        assert_eq!(lines(b"START 15\n\xff\nBEGIN\n"), [line("START 15"), line("\u{fffd}"), line("BEGIN")]);
    }

    #[test]
    fn overlong_lines_are_refused_and_the_rest_still_read() {
        let mut bytes = vec![b'x'; MAX_LINE + 5];
        bytes.extend_from_slice(b"\nEND\n");
        assert_eq!(lines(&bytes), [Incoming::TooLong(MAX_LINE + 5), line("END")]);
    }
}
