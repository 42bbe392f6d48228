//! `random`: a uniformly random legal move.

use std::sync::Arc;

use board::{RandomAgent, mix_seed};

use super::SEED_EXPECTED;
use crate::options::Options;
use crate::spec::{Built, SpecError};

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    Ok(Built::any_rules(Arc::new(move |game_seed| Box::new(RandomAgent::new(mix_seed(seed, game_seed))))))
}
