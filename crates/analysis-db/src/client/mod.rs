//! What the programs that use the store see of it, defined once: a
//! record ([`record`]), a search's reads and writes with their overwrite
//! rules ([`analysis_store`]), the one opened database a program's users
//! share ([`shared`]), and what a GUI and the reference engine show of a
//! record ([`gui`]).

mod analysis_store;
pub mod gui;
pub(crate) mod record;
pub(crate) mod shared;
