//! What a builder makes of a spec's options: a factory of agents and a
//! check of the rules they can play.

use std::sync::Arc;

use board::Rules;
use play::Agent;

/// Makes one agent for one game, from that game's seed.
pub(crate) type Maker = Arc<dyn Fn(u64) -> Box<dyn Agent> + Send + Sync>;

/// Says why a spec's engine cannot play some rules, if it cannot.
pub(crate) type RulesCheck = Arc<dyn Fn(&Rules) -> Result<(), String> + Send + Sync>;

/// What an engine's builder makes of a spec's options.
pub(crate) struct Built {
    pub(crate) maker: Maker,
    pub(crate) rules_check: RulesCheck,
}

impl Built {
    /// An engine that plays any rules.
    pub(crate) fn any_rules(maker: Maker) -> Built {
        Built { maker, rules_check: Arc::new(|_| Ok(())) }
    }
}
