//! The opening rules: how a game's first stones are put and who takes
//! which colour. Swap1 and swap2 ([`swap`]), the RIF's Soosõrv-8 and
//! Taraguchi-10 ([`rif`]), and a game played under any of them
//! ([`play_swap_game`]).

pub mod rif;
pub mod swap;
mod swap_game;

pub use swap::{
    OpeningRule, SwapChoice, SwapRecord, SwapStep, candidate_openings, choose_by_judging, opening_position,
    propose_by_judging,
};
pub use swap_game::play_swap_game;
