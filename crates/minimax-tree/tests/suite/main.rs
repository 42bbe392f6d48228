//! Every integration test of the crate in one binary (one link, not one a file).

mod analysis_store;
mod classic_tree_minimax;
mod players;
mod properties;
mod tactics;
