//! Every integration test of the crate in one binary (one link, not one a file).

mod arena;
mod classic_minimax;
mod database;
mod fuzz;
mod games;
mod old_files;
mod proofs;
