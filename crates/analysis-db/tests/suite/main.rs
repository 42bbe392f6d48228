//! Every integration test of the crate in one binary (one link, not one a file).

mod files;
mod records;
