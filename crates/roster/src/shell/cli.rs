//! The command line every mnk program shares: clap parsing with every
//! engine's options in `--help`, errors printed for people (no
//! backtrace, huge values cut short), output to a closed pipe ending
//! quietly.

use std::fmt::Display;
use std::process::ExitCode;

use crate::engine_help;

/// The whole `main` of a command-line program: output to a closed pipe
/// ends it quietly ([`quiet_on_closed_pipe`]), the command line is parsed
/// ([`parse_command_line`]) and run, and an error is printed as
/// `error: …` with its causes, giving exit status 1.
pub fn main_of<T: clap::Parser, E: Display>(run: impl FnOnce(T) -> Result<(), E>) -> ExitCode {
    quiet_on_closed_pipe();
    match run(parse_command_line::<T>()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", board::shorten_words(&format!("{error:#}")));
            ExitCode::FAILURE
        }
    }
}

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

/// Writes `text` to `path` whole or not at all
/// ([`play::files::write_atomically`]), the error naming the file.
///
/// # Errors
/// If the file cannot be written: `cannot write PATH: why`.
pub fn write_file(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    play::files::write_atomically(path, text.as_bytes()).map_err(|error| {
        std::io::Error::new(error.kind(), format!("cannot write {}: {error}", path.display()))
    })
}
