//! Criterion benches of the board's hot paths.
fn main() {}
