//! The shell every mnk program shares, apart from the registry: the
//! command line (clap parsing with every engine's options in `--help`,
//! errors for people, a closed pipe ending quietly), files written whole,
//! and the progress every long run shows.

mod cli;
mod progress;

pub use cli::{main_of, parse_command_line, quiet_on_closed_pipe, write_file};
pub use progress::Progress;
