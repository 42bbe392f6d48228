//! The training pipelines of the mnk engines that benches and other
//! programs may reuse; the `trainer` binary is their command line.
#![warn(missing_docs)]

pub mod chunks;
pub mod evolve;
pub mod label;
pub mod net;
pub mod optimiser;
pub mod policy;
pub mod selfplay;
pub mod texel;
