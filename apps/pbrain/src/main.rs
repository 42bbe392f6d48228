//! `pbrain-mnk [SPEC]`: an mnk engine as a Gomocup brain on stdin and
//! stdout, for Piskvork, Yixin Board, c-gomoku-cli or the Gomocup itself.
//!
//! The engine is a roster spec: the first argument, else the `MNK_ENGINE`
//! environment variable, else the default, alpha-beta searching by threats
//! (the strongest engine measured; see the minimax-tree README). A spec
//! that does not parse is reported at once (stderr, exit code 2); one
//! that cannot play the rules of a `START` is an `ERROR` to the manager.

use std::io::{self, BufReader};
use std::process::ExitCode;

use board::Rules;
use gomocup::{About, Resources, serve};
use play::Agent;
use roster::AgentSpec;

/// The engine when none is named.
const DEFAULT_ENGINE: &str = "alphabeta";

/// The spec within what the manager allows: its table at `hash_size`,
/// its table or trees within `max_memory` (see
/// [`AgentSpec::within_memory`]), its threads at `thread_num` and its
/// analysis database the GUI's, where the manager gives them.
fn within(spec: &AgentSpec, resources: &Resources) -> Result<AgentSpec, String> {
    let mut spec = spec.clone();
    if let Some(bytes) = resources.table_bytes {
        spec = spec.with_table_bytes(bytes).map_err(|error| error.to_string())?;
    }
    if let Some(bytes) = resources.max_memory {
        spec = spec.within_memory(bytes).map_err(|error| error.to_string())?;
    }
    if let Some(threads) = resources.threads {
        spec = spec.with_threads(threads).map_err(|error| error.to_string())?;
    }
    // The brain's own opened database, shared: one opening of the file.
    if let Some((database, write)) = &resources.database {
        spec = spec.with_store(database, *write).map_err(|error| error.to_string())?;
    }
    Ok(spec)
}

/// An mnk engine as a Gomocup brain: speaks the protocol on stdin and
/// stdout, for Piskvork, Yixin Board, c-gomoku-cli or the Gomocup itself.
#[derive(Debug, clap::Parser)]
#[command(name = "pbrain-mnk", version)]
struct Args {
    /// The engine, as a roster spec such as `alphabeta:threads=2` or
    /// `mcts:ms=500` (default: `$MNK_ENGINE`, else `alphabeta`).
    spec: Option<String>,
}

fn main() -> ExitCode {
    let args = roster::shell::parse_command_line::<Args>();
    let text = args
        .spec
        .or_else(|| std::env::var("MNK_ENGINE").ok().filter(|spec| !spec.trim().is_empty()))
        .unwrap_or_else(|| DEFAULT_ENGINE.to_owned());
    let spec: AgentSpec = match text.parse() {
        Ok(spec) => spec,
        Err(error) => {
            eprintln!("pbrain-mnk: {}", board::shorten_words(&error.to_string()));
            return ExitCode::from(2);
        }
    };
    let about = About {
        name: format!("mnk {}", spec.text()),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        author: "The mnk developers".to_owned(),
        country: "-".to_owned(),
        max_threads: spec.max_threads(),
    };
    let mut games = 0u64;
    let make = move |rules: Rules, resources: Resources| -> Result<Box<dyn Agent>, String> {
        let spec = within(&spec, &resources)?;
        spec.check_rules(&rules).map_err(|error| error.to_string())?;
        games += 1;
        Ok(spec.build(games))
    };
    match serve(BufReader::new(io::stdin()), io::stdout().lock(), about, Box::new(make)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("pbrain-mnk: cannot write to the manager: {error}");
            ExitCode::FAILURE
        }
    }
}
