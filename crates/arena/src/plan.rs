//! What to play: the entrants, who meets whom, how many games, from which
//! openings, under which limits — and the schedule of games that follows.

use std::fmt;
use std::sync::Arc;

use board::{Cell, Rules, mix_seed};
use play::clock::TimeControl;
use play::{Agent, Limits, OpeningRule};

use crate::ArenaError;
use crate::openings::{Openings, OpeningsError};
use crate::records::RunHeader;
use crate::schedule::{Format, Slot, pairings_of, schedule_of};
use crate::shard::Shard;
use crate::sprt::Sprt;

/// An engine as the arena knows it: a label for tables and records (its
/// spec, say) and a factory of fresh agents, one per game.
#[derive(Clone)]
pub struct Entrant {
    label: String,
    make: Arc<dyn Fn(u64) -> Box<dyn Agent> + Send + Sync>,
}

impl Entrant {
    /// An entrant whose agents `make(seed)` builds.
    pub fn new(
        label: impl Into<String>,
        make: impl Fn(u64) -> Box<dyn Agent> + Send + Sync + 'static,
    ) -> Entrant {
        Entrant { label: label.into(), make: Arc::new(make) }
    }

    /// Its label.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A fresh agent seeded with `seed`.
    #[must_use]
    pub fn build(&self, seed: u64) -> Box<dyn Agent> {
        (self.make)(seed)
    }
}

impl fmt::Debug for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entrant").field("label", &self.label).finish_non_exhaustive()
    }
}

/// Everything that decides the games of a run. The same plan plays the
/// same games, whatever the number of threads.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The rules of every game.
    pub rules: Rules,
    /// The engines.
    pub entrants: Vec<Entrant>,
    /// Who meets whom.
    pub format: Format,
    /// Games per pairing; each opening is played twice, colours swapped.
    pub games: u64,
    /// Where the openings come from.
    pub openings: Openings,
    /// How each game's first stones are put: under a swap rule the
    /// players put them (no openings then), the pairing's engines taking
    /// turns to open, and colours fall where their choices put them.
    pub opening_rule: OpeningRule,
    /// Limits of every move (time, nodes, depth).
    pub limits: Limits,
    /// The clock each side plays on, if any: each move then takes its
    /// share of it, and a side out of time loses (see
    /// [`play::play_game_on_clock`]).
    pub clock: Option<TimeControl>,
    /// The seed of openings and engines.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Stop a match as soon as this test decides (matches only).
    pub sprt: Option<Sprt>,
}

impl Plan {
    /// A match of `games` games between `a` and `b` from the empty board,
    /// one thread, no limits beyond the engines' own: set the other fields
    /// as needed. Entrants entered more than once (an engine against
    /// itself) are told apart as `label (A)`, `label (B)`, ….
    #[must_use]
    pub fn new(rules: Rules, mut entrants: Vec<Entrant>, games: u64) -> Plan {
        label_apart(&mut entrants);
        Plan {
            rules,
            entrants,
            format: Format::Match,
            games,
            openings: Openings::Empty,
            opening_rule: OpeningRule::None,
            limits: Limits::none(),
            clock: None,
            seed: 0,
            threads: 1,
            sprt: None,
        }
    }

    /// The pairings `(a, b)` of entrant indices, A first.
    #[must_use]
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        pairings_of(self.format, self.entrants.len())
    }

    /// Every game in the order it is started: opening by opening, each
    /// pairing playing both colours of it before the next opening.
    #[must_use]
    pub fn schedule(&self) -> Vec<Slot> {
        schedule_of(self.format, self.entrants.len(), self.games)
    }

    /// What the records file of shard `shard` of this plan says of its run.
    #[must_use]
    pub fn header(&self, shard: Shard) -> RunHeader {
        RunHeader {
            run: self.fingerprint(),
            rules: self.rules,
            format: self.format,
            games: self.games,
            seed: self.seed,
            entrants: self.entrants.iter().map(|entrant| entrant.label.clone()).collect(),
            sprt: self.sprt,
            opening_rule: self.opening_rule,
            shard,
        }
    }

    /// The seed of game `index` of the schedule, from which both engines
    /// of the game are seeded.
    #[must_use]
    pub fn game_seed(&self, index: u64) -> u64 {
        mix_seed(mix_seed(self.seed, 0x0061_7265_6e61), index)
    }

    /// The openings of every pair of games, drawn up front.
    ///
    /// # Errors
    /// [`OpeningsError`] if random openings cannot be balanced.
    pub fn draw_openings(&self) -> Result<Vec<Vec<Cell>>, OpeningsError> {
        (0..self.games.div_ceil(2)).map(|pair| self.openings.opening(self.rules, self.seed, pair)).collect()
    }

    /// Checks that the plan can run.
    ///
    /// # Errors
    /// [`ArenaError::Plan`] saying what is wrong.
    pub fn check(&self) -> Result<(), ArenaError> {
        let fail = |reason: String| Err(ArenaError::Plan(reason));
        let n = self.entrants.len();
        match self.format {
            Format::Match if n != 2 => return fail(format!("a match needs exactly 2 engines, not {n}")),
            Format::RoundRobin | Format::Gauntlet if n < 2 => {
                return fail(format!("a tournament needs at least 2 engines, not {n}"));
            }
            _ => {}
        }
        for (i, entrant) in self.entrants.iter().enumerate() {
            if self.entrants[..i].iter().any(|other| other.label == entrant.label) {
                return fail(format!(
                    "`{}` is entered twice: give each entrant its own label",
                    entrant.label
                ));
            }
        }
        if self.games == 0 {
            return fail("play at least one game per pairing".to_owned());
        }
        if self.threads == 0 {
            return fail("use at least one thread".to_owned());
        }
        if self.opening_rule.is_swap() && self.openings != Openings::Empty {
            return fail(format!(
                "under {} the engines put the opening stones: give no openings",
                self.opening_rule
            ));
        }
        if self.sprt.is_some() && self.format != Format::Match {
            return fail("an SPRT stops a match between two engines, not a tournament".to_owned());
        }
        Ok(())
    }

    /// A fingerprint of everything that decides the games (not the thread
    /// count), so that records are resumed only by the run that wrote them.
    #[must_use]
    pub fn fingerprint(&self) -> String {
        let labels: Vec<&str> = self.entrants.iter().map(Entrant::label).collect();
        let text = format!(
            "{}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{}|{:?}",
            self.rules,
            self.format,
            self.games,
            self.openings,
            self.limits.time,
            self.limits.nodes,
            self.limits.depth,
            self.seed,
            labels
        );
        // Only a run on a clock says so: fingerprints of runs without one
        // are what they were.
        let text = match self.clock {
            Some(clock) => format!("{text}|clock {clock}"),
            None => text,
        };
        let text = if self.opening_rule.is_swap() { format!("{text}|{}", self.opening_rule) } else { text };
        // FNV-1a: stable across builds and platforms, unlike std's hasher.
        let hash = text
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        format!("{hash:016x}")
    }
}

/// Suffixes labels that occur more than once with ` (A)`, ` (B)`, … in
/// the order they are entered.
fn label_apart(entrants: &mut [Entrant]) {
    let labels: Vec<String> = entrants.iter().map(|entrant| entrant.label.clone()).collect();
    for (i, entrant) in entrants.iter_mut().enumerate() {
        let label = &labels[i];
        if labels.iter().filter(|other| *other == label).count() < 2 {
            continue;
        }
        let nth = labels[..i].iter().filter(|other| *other == label).count();
        let tag = match u8::try_from(nth) {
            Ok(n) if n < 26 => char::from(b'A' + n).to_string(),
            _ => (nth + 1).to_string(),
        };
        entrant.label = format!("{label} ({tag})");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use play::RandomAgent;

    fn entrant(label: &str) -> Entrant {
        Entrant::new(label, |seed| Box::new(RandomAgent::new(seed)))
    }

    fn plan(format: Format, n: usize, games: u64) -> Plan {
        let entrants = (0..n).map(|i| entrant(&format!("e{i}"))).collect();
        Plan { format, ..Plan::new(Rules::tic_tac_toe(), entrants, games) }
    }

    #[test]
    fn pairings_by_format() {
        assert_eq!(plan(Format::Match, 2, 4).pairings(), vec![(0, 1)]);
        assert_eq!(
            plan(Format::RoundRobin, 4, 4).pairings(),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(plan(Format::Gauntlet, 4, 4).pairings(), vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn the_schedule_plays_each_opening_with_both_colours() {
        let slots = plan(Format::RoundRobin, 3, 5).schedule();
        assert_eq!(slots.len(), 15);
        assert_eq!(slots[0], Slot { pairing: 0, number: 0 });
        assert_eq!(slots[1], Slot { pairing: 0, number: 1 });
        assert_eq!(slots[2], Slot { pairing: 1, number: 0 });
        for pairing in 0..3 {
            let numbers: Vec<u64> = slots.iter().filter(|s| s.pairing == pairing).map(|s| s.number).collect();
            assert_eq!(numbers, vec![0, 1, 2, 3, 4]);
        }
        assert!(slots[0].a_is_x() && !slots[1].a_is_x() && slots[1].pair() == 0);
    }

    #[test]
    fn bad_plans_say_why() {
        let cases = [
            (plan(Format::Match, 3, 2), "exactly 2"),
            (plan(Format::RoundRobin, 1, 2), "at least 2"),
            (plan(Format::Match, 2, 0), "at least one game"),
            (Plan { threads: 0, ..plan(Format::Match, 2, 2) }, "one thread"),
            (
                Plan { sprt: Sprt::new(0.0, 5.0, 0.05, 0.05).ok(), ..plan(Format::Gauntlet, 3, 2) },
                "not a tournament",
            ),
            (
                Plan { entrants: vec![entrant("a"), entrant("a")], ..plan(Format::Match, 2, 2) },
                "entered twice",
            ),
            (
                Plan {
                    opening_rule: OpeningRule::Swap1,
                    openings: Openings::Random { plies: 2 },
                    ..plan(Format::Match, 2, 2)
                },
                "give no openings",
            ),
        ];
        for (plan, expected) in cases {
            let error = plan.check().unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
        assert!(plan(Format::Match, 2, 2).check().is_ok());
    }

    #[test]
    fn an_engine_entered_twice_is_told_apart() {
        let entrants = ["random", "pattern", "random", "random"].map(entrant).to_vec();
        let plan = Plan { format: Format::RoundRobin, ..Plan::new(Rules::tic_tac_toe(), entrants, 2) };
        let labels: Vec<&str> = plan.entrants.iter().map(Entrant::label).collect();
        assert_eq!(labels, ["random (A)", "pattern", "random (B)", "random (C)"]);
        assert!(plan.check().is_ok());
    }

    #[test]
    fn the_fingerprint_ignores_threads_only() {
        let base = plan(Format::Match, 2, 10);
        assert_eq!(base.fingerprint(), Plan { threads: 4, ..base.clone() }.fingerprint());
        assert_ne!(base.fingerprint(), Plan { seed: 1, ..base.clone() }.fingerprint());
        assert_ne!(base.fingerprint(), Plan { games: 11, ..base.clone() }.fingerprint());
        assert_ne!(
            base.fingerprint(),
            Plan { openings: Openings::Random { plies: 2 }, ..base.clone() }.fingerprint()
        );
        assert_ne!(
            base.fingerprint(),
            Plan { opening_rule: OpeningRule::Swap2, ..base.clone() }.fingerprint()
        );
    }
}
