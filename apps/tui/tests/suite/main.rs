//! Every integration test of the crate in one binary (one link, not one a file).

mod cli;
mod common;
mod database;
mod opening_files;
mod rif;
mod rule_sets;
mod screen;
mod swap;
mod workbench;
