//! Every integration test of the crate in one binary (one link, not one a file).

mod alphabeta;
mod analysis_store;
mod players;
mod properties;
mod support;
mod tactics;
