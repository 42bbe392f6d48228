//! The Gomocup protocol both ways: [`serve`] makes any [`play::Agent`] a
//! brain that Gomocup managers and GUIs (Piskvork, Yixin Board,
//! c-gomoku-cli) can drive over stdin and stdout, and [`ExternalAgent`]
//! drives any brain executable as an agent, so the arena can play against
//! it.
//!
//! ```
//! use std::io::Cursor;
//! use board::Rules;
//! use play::RandomAgent;
//! use gomocup::{About, serve};
//!
//! let input = Cursor::new("START 15\nBEGIN\nEND\n");
//! let mut output = Vec::new();
//! let about = About { name: "demo".into(), version: "1".into(), author: "us".into(), country: "-".into(), max_threads: None };
//! serve(input, &mut output, about, Box::new(|_: Rules, _| Ok(Box::new(RandomAgent::new(1)) as Box<dyn play::Agent>)))?;
//! let text = String::from_utf8(output).unwrap();
//! assert!(text.starts_with("OK\n"));
//! # Ok::<(), std::io::Error>(())
//! ```
#![warn(missing_docs)]

mod brain;
pub mod database_command;
mod external;
pub mod input;
mod message;
pub mod protocol;
mod words;

pub use brain::{About, DEFAULT_DATABASE, MakeAgent, Resources, serve};
pub use external::ExternalAgent;
pub use message::read_messages;
