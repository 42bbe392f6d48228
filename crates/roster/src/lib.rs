//! The one place that names every engine: it turns a spec string such as
//! `random:seed=7` into an [`Agent`](play::Agent), with errors that list
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
pub mod shell;
mod spec;

pub use engines::{ENGINES, EngineInfo, evaluation};
pub use error::SpecError;
pub use help::engine_help;
pub use spec::{AgentSpec, Unsupported};
