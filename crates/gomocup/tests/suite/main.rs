//! Every integration test of the crate in one binary (one link, not one a file).

mod brain;
mod common;
mod database;
