//! The one place that names every engine: it turns a spec string such as
//! `random:seed=7` into an [`Agent`](board::Agent), with errors that list
//! what is valid.
//!
//! A spec is an engine name, then optionally `:` and `key=value` options
//! separated by commas. Parse once, then build a fresh agent per game:
//!
//! ```
//! let spec: roster::AgentSpec = "random:seed=7".parse()?;
//! let mut agent = spec.build(0);
//! assert_eq!(agent.name(), "random");
//! assert!("randm".parse::<roster::AgentSpec>().unwrap_err().to_string().contains("random"));
//! # Ok::<(), roster::SpecError>(())
//! ```
#![warn(missing_docs)]

mod built;
mod engines;
mod error;
mod help;
mod options;
mod spec;

pub use engines::{ENGINES, EngineInfo, Evaluation, evaluation};
pub use error::SpecError;
pub use help::engine_help;

/// The command line of an mnk program, parsed; on an error, the message
/// (with any huge value quoted cut short, see [`board::shorten_words`])
/// and exit, as clap does. `--help` ends with every engine and its
/// options ([`engine_help`]).
#[must_use]
pub fn parse_command_line<T: clap::Parser>() -> T {
    let command = T::command().after_long_help(engine_help());
    command.try_get_matches().and_then(|matches| T::from_arg_matches(&matches)).unwrap_or_else(|error| {
        if error.use_stderr() {
            eprint!("{}", board::shorten_words(&error.render().to_string()));
            std::process::exit(error.exit_code());
        }
        error.exit()
    })
}
pub use spec::{AgentSpec, Unsupported};

/// Makes output to a closed pipe (`bench perft … | head -1`) end an mnk
/// program quietly, with the status a shell reports for a program the
/// closed pipe stopped (141, as for SIGPIPE), instead of a panic: Rust
/// programs ignore SIGPIPE, so `println!` to a closed pipe panics. Call
/// it first in `main`; other panics are reported as before.
pub fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if message.is_some_and(|message| {
            message.starts_with("failed printing to stdout")
                && (message.contains("Broken pipe") || message.contains("os error 32"))
        }) {
            std::process::exit(141);
        }
        report(info);
    }));
}
