//! Progress of a long run, as every app shows it: a bar (indicatif) on a
//! terminal, and on a pipe or in a log — where a bar draws nothing — a
//! plain line now and then, so that a run is never silent for long.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain line is printed on a pipe.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// A run's progress: `done` of `total` units (games, epochs, …).
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    /// On a pipe: what a unit is called, and when a line was last printed.
    plain: Option<(String, Mutex<Instant>)>,
}

impl Progress {
    /// Progress over `total` units named `units` (`games`, `epochs`); the
    /// bar on a terminal, plain lines on stderr otherwise.
    #[must_use]
    pub fn new(total: u64, units: &str) -> Progress {
        Progress::to(total, units, std::io::stderr().is_terminal())
    }

    /// Progress whose message says the count itself (the arena's live
    /// line: `37/100  a vs b: +10 =5 -2 …`): the bar and the plain line
    /// show the message alone.
    #[must_use]
    pub fn counted_in_message(total: u64) -> Progress {
        Progress::to(total, "", std::io::stderr().is_terminal())
    }

    /// As [`Progress::new`], with the choice of a bar made by the caller;
    /// empty `units` means the message carries the count.
    ///
    /// # Panics
    /// Never: the bar's template is fixed and valid.
    #[must_use]
    pub fn to(total: u64, units: &str, terminal: bool) -> Progress {
        if terminal {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = if units.is_empty() {
                "{bar:30} {msg}".to_owned()
            } else {
                format!("{{bar:30}} {{pos}}/{{len}} {units}  {{msg}}")
            };
            bar.set_style(ProgressStyle::with_template(&template).expect("a valid template"));
            Progress { bar, plain: None }
        } else {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
            Progress { bar, plain: Some((units.to_owned(), Mutex::new(Instant::now()))) }
        }
    }

    /// Units done so far.
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
        self.maybe_say();
    }

    /// One unit (or more) more done.
    pub fn inc(&self, units: u64) {
        self.bar.inc(units);
        self.maybe_say();
    }

    /// What to show beside the count (a score, a loss).
    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// The plain line, as a pipe gets it.
    #[must_use]
    pub fn line(&self) -> String {
        let units = self.plain.as_ref().map_or("", |(units, _)| units.as_str());
        if units.is_empty() {
            return self.bar.message();
        }
        let total = self.bar.length().unwrap_or(0);
        let message = self.bar.message();
        let gap = if message.is_empty() { "" } else { "  " };
        format!("{}/{total} {units}{gap}{message}", self.bar.position())
    }

    /// On a pipe: a line if the last one is old enough.
    fn maybe_say(&self) {
        let Some((_, last)) = &self.plain else { return };
        let mut last = last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if last.elapsed() >= PLAIN_EVERY {
            *last = Instant::now();
            eprintln!("{}", self.line());
        }
    }

    /// The run is over: the bar goes; on a pipe, a last line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        if self.plain.is_some() {
            eprintln!("{}", self.line());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_says_the_count_the_units_and_the_message() {
        let progress = Progress::to(10, "games", false);
        progress.set_position(3);
        assert_eq!(progress.line(), "3/10 games");
        progress.set_message("+2 =0 -1");
        progress.inc(1);
        assert_eq!(progress.line(), "4/10 games  +2 =0 -1");
        let own = Progress::to(10, "", false);
        own.set_message("4/10  a vs b: +2 =0 -2");
        own.set_position(4);
        assert_eq!(own.line(), "4/10  a vs b: +2 =0 -2");
    }
}
