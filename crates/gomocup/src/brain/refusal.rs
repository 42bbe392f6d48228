//! What the brain answers: a line (or lines), or a refusal, which goes
//! out as `ERROR` and why — the one place that writes the prefix.

use std::fmt;

/// A command the brain could not carry out, and why; sent as `ERROR why`,
/// after any lines the command said first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    /// Lines said before the refusal (a `MESSAGE`).
    before: Option<String>,
    why: String,
}

/// A command's answer.
pub(super) type Reply = Result<String, Refusal>;

impl Refusal {
    pub(super) fn new(why: impl Into<String>) -> Refusal {
        Refusal { before: None, why: why.into() }
    }

    /// The refusal, after `said`.
    pub(super) fn after(self, said: String) -> Refusal {
        Refusal { before: Some(said), ..self }
    }

    /// What an engine's run came to: its answer, or why there is none
    /// (the engine failed, or panicked).
    pub(super) fn engine<T, E: fmt::Display>(ran: Result<Result<T, E>, ()>) -> Result<T, Refusal> {
        match ran {
            Ok(Ok(found)) => Ok(found),
            Ok(Err(error)) => Err(Refusal::new(format!("the engine failed: {error}"))),
            Err(()) => Err(Refusal::new("the engine panicked")),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}

/// The text sent for `reply`.
pub(super) fn said(reply: Reply) -> String {
    match reply {
        Ok(line) => line,
        Err(Refusal { before: Some(before), why }) => format!("{before}\nERROR {why}"),
        Err(Refusal { before: None, why }) => format!("ERROR {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_written_with_its_prefix_once() {
        assert_eq!(said(Ok("h8".to_owned())), "h8");
        assert_eq!(said(Err(Refusal::new("BOARD before START"))), "ERROR BOARD before START");
        let after = Refusal::new("no").after("MESSAGE first".to_owned());
        assert_eq!(said(Err(after)), "MESSAGE first\nERROR no");
        assert_eq!(
            Refusal::engine::<u8, &str>(Ok(Err("lost"))),
            Err(Refusal::new("the engine failed: lost"))
        );
        assert_eq!(Refusal::engine::<u8, &str>(Err(())), Err(Refusal::new("the engine panicked")));
    }
}
