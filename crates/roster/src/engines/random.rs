//! `random`: a uniformly random legal move.

use std::sync::Arc;

use board::mix_seed;
use play::RandomAgent;

use crate::built::Built;
use crate::error::SpecError;
use crate::options::Options;

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let seed: u64 = options.get("seed")?;
    Ok(Built::any_rules(Arc::new(move |game_seed| Box::new(RandomAgent::new(mix_seed(seed, game_seed))))))
}
