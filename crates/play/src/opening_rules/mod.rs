//! The opening rules: how a game's first stones are put and who takes
//! which colour. Swap1 and swap2 ([`swap`]), the RIF's Soosõrv-8 and
//! Taraguchi-10 ([`rif`]), and a game played under any of them
//! ([`play_swap_game`]).

pub mod asks;
pub mod record;
pub mod rif;
pub mod swap;
mod swap_game;

pub use asks::{OpeningAnswer, OpeningAsk};
pub use swap::{
    OpeningRule, SwapChoice, SwapRecord, SwapStep, candidate_openings, choose_by_judging, opening_position,
    propose_by_judging,
};
pub use swap_game::play_swap_game;

use crate::agent::{Agent, AgentError};
use crate::limits::Limits;
use board::{Cell, Position, Rules};

/// The three stones `agent` opens with under a swap rule: its own, or
/// (it has no way of its own) the most even of a few as its search judges
/// them.
///
/// # Errors
/// [`AgentError`] if the engine cannot choose.
pub fn propose<A: Agent + ?Sized>(
    agent: &mut A,
    rules: &Rules,
    limits: &Limits,
) -> Result<[Cell; 3], AgentError> {
    match agent.propose_opening(rules, limits)? {
        Some(stones) => Ok(stones),
        None => swap::propose_by_judging(agent, *rules, limits),
    }
}

/// `agent`'s answer to the opening `pos` offered under a swap rule: its
/// own, or the side its search judges better.
///
/// # Errors
/// [`AgentError`] if the engine cannot choose.
pub fn choose_side<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    may_put_two: bool,
    limits: &Limits,
) -> Result<SwapChoice, AgentError> {
    match agent.choose_side(pos, may_put_two, limits)? {
        Some(choice) => Ok(choice),
        None => swap::choose_by_judging(agent, pos, may_put_two, limits),
    }
}

/// `agent`'s answer to a RIF step: its own, or from its search's judgement.
///
/// # Errors
/// [`AgentError`] if the engine cannot decide.
pub fn decide_opening<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    ask: &OpeningAsk,
    limits: &Limits,
) -> Result<OpeningAnswer, AgentError> {
    match agent.decide_opening(pos, ask, limits)? {
        Some(answer) => Ok(answer),
        None => rif::decide_by_judging(agent, pos, ask, limits),
    }
}
