//! Playing a plan: games on a rayon pool, collected on the calling thread,
//! which writes each record as it comes, keeps the statistics and the
//! SPRT, and reports progress.
//!
//! Game i's engines are seeded from the plan's seed and i alone, so the
//! games do not depend on the number of threads or on the order they
//! finish in. The SPRT reads games in schedule order only, so it decides
//! after the same game whatever the threads; games that were already
//! running when it decided are kept in the records but not counted.

use std::collections::BTreeMap;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use board::{Cell, Side, mix_seed};
use play::{Agent, GameRecord, StopFlag, play_game, play_game_on_clock, play_swap_game};

use crate::ArenaError;
use crate::elo::{Pentanomial, Wdl};
use crate::guard::{Guarded, panic_message};
use crate::plan::Plan;
use crate::ratings::rate;
use crate::records::{GameLine, RecordsFile, RunHeader};
use crate::schedule::Slot;
use crate::shard::Shard;
use crate::sprt::Decision;
use crate::summary::{GameResult, PairingSummary, SprtState, Summary, elo_text};

/// Virtual draws per pairing in the rating list (see [`crate::ratings`]).
pub const RATING_PRIOR: f64 = 1.0;

/// How a run is carried out, beyond the plan: where records go, and who
/// hears about progress.
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Append every finished game to this file as one JSON line.
    pub records: Option<&'a Path>,
    /// Continue the run the records file holds instead of refusing to
    /// touch a file with games in it.
    pub resume: bool,
    /// Set from outside to stop starting games; running ones finish and
    /// are recorded.
    pub stop: Option<StopFlag>,
    /// Called after every finished game.
    pub progress: Option<&'a mut dyn FnMut(&Live<'_>)>,
    /// Play only this shard's games (see [`Shard`]): every one of them,
    /// even in a match with an SPRT, which the merge of the shards'
    /// records decides.
    pub shard: Shard,
}

impl fmt::Debug for RunOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("records", &self.records)
            .field("resume", &self.resume)
            .field("stop", &self.stop)
            .field("progress", &self.progress.is_some())
            .field("shard", &self.shard)
            .finish()
    }
}

/// Progress after a game: how far the run is and how the pairing of the
/// game stands.
#[derive(Debug)]
pub struct Live<'a> {
    /// Games finished, including those read back from the records.
    pub done: u64,
    /// Games in the plan.
    pub total: u64,
    /// The game that just finished.
    pub game: &'a GameLine,
    /// Its pairing's results so far, over every finished game.
    pub pairing: &'a PairingSummary,
    /// The pairing's labels, A first.
    pub labels: [&'a str; 2],
    /// The SPRT so far, if the match runs one.
    pub sprt: Option<&'a SprtState>,
}

impl fmt::Display for Live<'_> {
    /// `37/100  a vs b: +10 =5 -2  Elo +35.2 ± 20.1  LLR 1.21 (-2.94, 2.94)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wdl = self.pairing.results;
        write!(
            f,
            "{}/{}  {} vs {}: +{} ={} -{}  {}",
            self.done,
            self.total,
            self.labels[0],
            self.labels[1],
            wdl.wins,
            wdl.draws,
            wdl.losses,
            elo_text(self.pairing.elo.as_ref())
        )?;
        if let Some(sprt) = self.sprt {
            write!(
                f,
                "  LLR {:.2} {}",
                sprt.llr,
                crate::summary::llr_place(sprt.llr, sprt.lower, sprt.upper)
            )?;
        }
        Ok(())
    }
}

/// Plays `plan` and returns what it found.
///
/// # Errors
/// [`ArenaError`] if the plan cannot run, its openings cannot be drawn,
/// or the records file cannot be used.
pub fn run(plan: &Plan, mut options: RunOptions<'_>) -> Result<Summary, ArenaError> {
    plan.check()?;
    let clock = Instant::now();
    let openings = plan.draw_openings()?;
    let schedule = plan.schedule();
    let shard = options.shard;
    let header = plan.header(shard);
    // A shard cannot decide an SPRT alone: it plays all its games.
    let counted = RunHeader { sprt: if shard.is_whole() { plan.sprt } else { None }, ..header.clone() };
    let mut collector = Collector::new(&counted, &schedule);
    let mut records = match options.records {
        Some(path) => {
            let (file, previous) = RecordsFile::open(path, &header, options.resume)?;
            for line in &previous {
                collector.check_slot(line, path)?;
                if !shard.holds(line.game) {
                    return Err(ArenaError::Corrupt {
                        path: path.to_owned(),
                        line: line.game as usize,
                        reason: format!("game {} is not shard {shard}'s", line.game),
                    });
                }
                collector.add(line);
            }
            Some(file)
        }
        None => None,
    };
    let pending: Vec<usize> = if collector.decided_at.is_some() {
        Vec::new()
    } else {
        (0..schedule.len()).filter(|&i| shard.holds(i as u64) && collector.results[i].is_none()).collect()
    };
    let before = collector.done;
    if !pending.is_empty() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(plan.threads)
            .build()
            .map_err(|error| ArenaError::Threads(error.to_string()))?;
        let fingerprint = collector.fingerprint.clone();
        let pairings = plan.pairings();
        let work = Work {
            plan,
            pairings: &pairings,
            openings: &openings,
            schedule: &schedule,
            fingerprint: &fingerprint,
            pending: &pending,
            halt: AtomicBool::new(false),
            next: AtomicUsize::new(0),
            stop: options.stop.clone(),
        };
        let (sender, receiver) = mpsc::channel::<Result<GameLine, ArenaError>>();
        let mut failure = None;
        pool.in_place_scope(|scope| {
            for _ in 0..plan.threads.min(pending.len()) {
                let (sender, work) = (sender.clone(), &work);
                scope.spawn(move |_| work.serve(&sender));
            }
            drop(sender);
            // This thread collects while the pool plays.
            for message in receiver {
                let step = message.and_then(|line| {
                    if let Some(file) = &mut records {
                        file.append(&line)?;
                    }
                    collector.add(&line);
                    for error in &line.record.learning_errors {
                        *collector.learning_errors.entry(error.clone()).or_default() += 1;
                    }
                    collector.report(&line, &mut options);
                    Ok(())
                });
                if let Err(error) = step {
                    failure.get_or_insert(error);
                }
                if failure.is_some() || collector.decided_at.is_some() {
                    work.halt.store(true, Ordering::Relaxed);
                }
            }
        });
        if let Some(error) = failure {
            return Err(error);
        }
    }
    let played_now = collector.done - before;
    Ok(collector.summary(played_now, clock.elapsed().as_secs_f64()))
}

/// What the workers share: the plan, the games still to play, and the
/// flags that tell them to stop starting games.
struct Work<'a> {
    plan: &'a Plan,
    pairings: &'a [(usize, usize)],
    openings: &'a [Vec<Cell>],
    schedule: &'a [Slot],
    fingerprint: &'a str,
    pending: &'a [usize],
    halt: AtomicBool,
    next: AtomicUsize,
    stop: Option<StopFlag>,
}

impl Work<'_> {
    /// Plays games until none is left or the run is told to stop.
    fn serve(&self, sender: &mpsc::Sender<Result<GameLine, ArenaError>>) {
        loop {
            if self.halt.load(Ordering::Relaxed) || self.stop.as_ref().is_some_and(StopFlag::is_set) {
                return;
            }
            let Some(&index) = self.pending.get(self.next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            let game = catch_unwind(AssertUnwindSafe(|| self.play(index)))
                .unwrap_or_else(|payload| Err(ArenaError::Panic(panic_message(&*payload))));
            if sender.send(game).is_err() {
                return;
            }
        }
    }

    /// Plays game `index` of the schedule with fresh agents.
    fn play(&self, index: usize) -> Result<GameLine, ArenaError> {
        let slot = self.schedule[index];
        let (a, b) = self.pairings[slot.pairing];
        let seed = self.plan.game_seed(index as u64);
        let mut agent_a = Guarded::new(self.plan.entrants[a].build(mix_seed(seed, 1)));
        let mut agent_b = Guarded::new(self.plan.entrants[b].build(mix_seed(seed, 2)));
        // The pairing's engines take turns to move first, or to open.
        let (first, second, agents): (usize, usize, [&mut dyn Agent; 2]) = if slot.a_is_x() {
            (a, b, [&mut agent_a, &mut agent_b])
        } else {
            (b, a, [&mut agent_b, &mut agent_a])
        };
        let (rules, limits, clock) = (self.plan.rules, &self.plan.limits, self.plan.clock);
        let record = if self.plan.opening_rule.is_swap() {
            play_swap_game(rules, self.plan.opening_rule, agents, limits, clock)
        } else {
            let opening = &self.openings[slot.pair() as usize];
            match clock {
                Some(clock) => play_game_on_clock(rules, agents, opening, limits, clock)?,
                None => play_game(rules, agents, opening, limits)?,
            }
        };
        let (x, o) = if first_is_x(&record) { (first, second) } else { (second, first) };
        if let Some(forfeit) = record.forfeit.as_ref().filter(|forfeit| forfeit.unsupported) {
            let engine = self.plan.entrants[[x, o][forfeit.side.index()]].label().to_owned();
            return Err(ArenaError::Unsupported { engine, reason: forfeit.reason.clone() });
        }
        Ok(GameLine {
            run: self.fingerprint.to_owned(),
            game: index as u64,
            pairing: slot.pairing,
            number: slot.number,
            specs: [self.plan.entrants[x].label().to_owned(), self.plan.entrants[o].label().to_owned()],
            record,
        })
    }
}

/// Whether the player who moved first (or opened, under a swap rule)
/// played X.
fn first_is_x(record: &GameRecord) -> bool {
    record.swap.as_ref().is_none_or(|swap| swap.opener == Side::X)
}

/// The results as they come in, the live statistics and the SPRT.
pub(crate) struct Collector<'a> {
    header: &'a RunHeader,
    schedule: &'a [Slot],
    pairings: Vec<(usize, usize)>,
    fingerprint: String,
    results: Vec<Option<GameResult>>,
    done: u64,
    /// Every finished game, per pairing, for progress.
    live: Vec<PairingSummary>,
    /// Games of the schedule read in order by the SPRT.
    prefix: usize,
    pairs: Pentanomial,
    sprt: Option<SprtState>,
    decided_at: Option<usize>,
    /// What learning agents could not keep, by message, with the games
    /// of this session it happened in.
    learning_errors: BTreeMap<String, u64>,
}

impl<'a> Collector<'a> {
    pub(crate) fn new(header: &'a RunHeader, schedule: &'a [Slot]) -> Collector<'a> {
        let pairings = header.pairings();
        let live = pairings.iter().map(|&(a, b)| PairingSummary::new(a, b)).collect();
        let sprt = header.sprt.map(|test| {
            let (lower, upper) = test.bounds();
            SprtState { test, llr: 0.0, lower, upper, decision: Decision::Continue, games: 0 }
        });
        Collector {
            header,
            schedule,
            pairings,
            fingerprint: header.run.clone(),
            results: vec![None; schedule.len()],
            done: 0,
            live,
            prefix: 0,
            pairs: Pentanomial::default(),
            sprt,
            decided_at: None,
            learning_errors: BTreeMap::new(),
        }
    }

    /// A record read back must be a game of this schedule, and only once.
    pub(crate) fn check_slot(&self, line: &GameLine, path: &Path) -> Result<(), ArenaError> {
        let corrupt =
            |reason: String| ArenaError::Corrupt { path: path.to_owned(), line: line.game as usize, reason };
        let Some(slot) = self.schedule.get(line.game as usize) else {
            return Err(corrupt(format!("game {} is not in this run's schedule", line.game)));
        };
        if slot.pairing != line.pairing || slot.number != line.number {
            return Err(corrupt(format!("game {} does not match this run's schedule", line.game)));
        }
        if self.results[line.game as usize].is_some() {
            return Err(corrupt(format!("game {} is recorded twice", line.game)));
        }
        Ok(())
    }

    pub(crate) fn add(&mut self, line: &GameLine) {
        let index = line.game as usize;
        let slot = self.schedule[index];
        // A moves first (or opens) in even games; a swap may give it O.
        let result = GameResult::new(
            slot.pairing,
            slot.number,
            slot.a_is_x() == first_is_x(&line.record),
            line.record.outcome,
            line.record.forfeit.is_some(),
            line.record.moves.len() as u64,
        );
        self.results[index] = Some(result);
        self.done += 1;
        // Live pairs count whichever game of the opening finished second.
        let partner = self.partner(index, true);
        self.live[slot.pairing].add(&result, partner.as_ref());
        self.advance_sprt();
    }

    /// The other game of `index`'s opening if it is in: the first one if
    /// `index` is the second, and with `either` also the second one if
    /// `index` is the first. Games of a pair are adjacent in the schedule.
    fn partner(&self, index: usize, either: bool) -> Option<GameResult> {
        let slot = self.schedule[index];
        if slot.number % 2 == 1 {
            self.results[index - 1]
        } else if either {
            self.results.get(index + 1).copied().flatten().filter(|other| other.pairing == slot.pairing)
        } else {
            None
        }
    }

    /// The games the summary counts (all, or those up to the SPRT's
    /// decision) that are not in.
    pub(crate) fn missing(&self) -> Vec<u64> {
        let counted = self.decided_at.unwrap_or(self.schedule.len());
        (0..counted).filter(|&index| self.results[index].is_none()).map(|index| index as u64).collect()
    }

    /// Feeds the SPRT the games now complete in schedule order, pair by pair.
    fn advance_sprt(&mut self) {
        let Some(state) = &mut self.sprt else { return };
        while self.decided_at.is_none() && self.prefix < self.schedule.len() {
            let Some(result) = self.results[self.prefix] else { break };
            self.prefix += 1;
            if result.number % 2 == 1 {
                let first = self.results[self.prefix - 2].expect("the prefix is complete");
                self.pairs.add(first.a_points, result.a_points);
                state.llr = state.test.llr_pairs(&self.pairs);
                state.decision = state.test.decide(state.llr);
                state.games = self.prefix as u64;
                if state.decision != Decision::Continue {
                    self.decided_at = Some(self.prefix);
                }
            }
        }
    }

    fn report(&self, line: &GameLine, options: &mut RunOptions<'_>) {
        let Some(progress) = options.progress.as_mut() else { return };
        let pairing = &self.live[line.pairing];
        let labels = [self.header.entrants[pairing.a].as_str(), self.header.entrants[pairing.b].as_str()];
        let total = self.header.shard.games_of(self.schedule.len() as u64);
        progress(&Live { done: self.done, total, game: line, pairing, labels, sprt: self.sprt.as_ref() });
    }

    /// The summary over the games counted: all of them, or those up to
    /// the SPRT's decision.
    pub(crate) fn summary(&self, played_now: u64, seconds: f64) -> Summary {
        let counted = self.decided_at.unwrap_or(self.schedule.len());
        let mut pairings: Vec<PairingSummary> =
            self.pairings.iter().map(|&(a, b)| PairingSummary::new(a, b)).collect();
        let mut games_counted = 0;
        for index in 0..counted {
            if let Some(result) = &self.results[index] {
                pairings[result.pairing].add(result, self.partner(index, false).as_ref());
                games_counted += 1;
            }
        }
        let n = self.header.entrants.len();
        let mut table = vec![vec![Wdl::default(); n]; n];
        for pairing in &pairings {
            table[pairing.a][pairing.b].merge(pairing.results);
        }
        Summary {
            rules: self.header.rules,
            opening_rule: self.header.opening_rule,
            format: self.header.format,
            seed: self.header.seed,
            run: self.fingerprint.clone(),
            entrants: self.header.entrants.clone(),
            games_planned: self.schedule.len() as u64,
            games_counted,
            games_played_now: played_now,
            seconds,
            pairings,
            ratings: rate(&table, 0, RATING_PRIOR),
            sprt: self.sprt,
            learning_errors: self
                .learning_errors
                .iter()
                .map(|(error, &games)| (error.clone(), games))
                .collect(),
        }
    }
}
