//! Every integration test of the crate in one binary (one link, not one a file).

mod csv;
mod files;
mod records;
mod renlib;
mod trees;
mod yxdb;
