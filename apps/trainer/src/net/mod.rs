//! Fitting the line-pattern network (`pattern_eval::net`) to a judge's
//! labelled positions: floats and Adam here, whole numbers in the file.

pub mod data;
pub mod model;
pub mod train;
