//! Every integration test of the crate in one binary (one link, not one a file).

mod greedy;
mod open_lines;
mod properties;
