//! Runs of the arena end to end: reproducibility across thread counts,
//! interrupting and resuming, the SPRT stopping a match, tournaments.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use arena::sprt::{Decision, Sprt};
use arena::{ArenaError, Entrant, Format, GameLine, Openings, Plan, RunOptions, read_records, run};
use board::{Cell, Position, Rules, Side};
use play::{Agent, AgentError, Limits, RandomAgent, StopFlag};

use crate::common::{random, sharp};

/// Panics on its second move.
struct Fragile(u32);

impl Agent for Fragile {
    fn name(&self) -> String {
        "fragile".to_owned()
    }
    fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
        self.0 += 1;
        assert!(self.0 < 2, "fragile broke");
        Ok(pos.legal_moves().next().expect("the game is not over"))
    }
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mnk-arena-{}-{name}", std::process::id()));
    let _ = fs::remove_file(&dir);
    dir
}

/// The records sorted by game, thinking times cleared (they are the one
/// thing that differs between runs).
fn games_of(path: &Path) -> Vec<GameLine> {
    let mut games = read_records(path).expect("records read back");
    games.sort_by_key(|line| line.game);
    for line in &mut games {
        line.record.moves.iter_mut().for_each(|m| m.micros = 0);
    }
    games
}

fn match_plan(threads: usize) -> Plan {
    Plan {
        seed: 11,
        threads,
        openings: Openings::Random { plies: 2 },
        ..Plan::new(Rules::five_8x8(), vec![random("a"), random("b")], 40)
    }
}

#[test]
fn a_match_is_the_same_with_one_and_two_threads() {
    let (one, two) = (temp_file("one.jsonl"), temp_file("two.jsonl"));
    let first = run(&match_plan(1), RunOptions { records: Some(&one), ..RunOptions::default() }).unwrap();
    let second = run(&match_plan(2), RunOptions { records: Some(&two), ..RunOptions::default() }).unwrap();
    assert_eq!(first.pairings, second.pairings);
    assert_eq!(first.games_counted, 40);
    let (a, b) = (games_of(&one), games_of(&two));
    assert_eq!(a.len(), 40);
    assert_eq!(a, b);
    // Each opening is played twice, with the colours swapped.
    for pair in a.chunks(2) {
        assert_eq!(pair[0].record.opening, pair[1].record.opening);
        assert_eq!(pair[0].record.opening.len(), 2);
        assert_eq!(pair[0].specs, ["a", "b"]);
        assert_eq!(pair[1].specs, ["b", "a"]);
    }
    for line in &a {
        let end = line.record.replay().expect("every move legal");
        assert_eq!(end.outcome(), Some(line.record.outcome));
    }
    let _ = (fs::remove_file(one), fs::remove_file(two));
}

#[test]
fn an_interrupted_match_resumes_without_losing_or_repeating_a_game() {
    let (whole, cut) = (temp_file("whole.jsonl"), temp_file("cut.jsonl"));
    let plan = match_plan(2);
    let full = run(&plan, RunOptions { records: Some(&whole), ..RunOptions::default() }).unwrap();

    // Stop once the 8th game has started: games already running finish
    // and are kept. (The stop is set as that game's agents are built, so
    // nothing here depends on timing.)
    let stop = StopFlag::new();
    let built = Arc::new(AtomicUsize::new(0));
    let interrupting = {
        let (stop, built) = (stop.clone(), Arc::clone(&built));
        Entrant::new("a", move |seed| {
            if built.fetch_add(1, Ordering::SeqCst) == 7 {
                stop.stop();
            }
            Box::new(RandomAgent::new(seed))
        })
    };
    let cut_plan = Plan { entrants: vec![interrupting, random("b")], ..match_plan(2) };
    let mut seen = 0;
    let mut progress = |live: &arena::Live<'_>| seen = live.done;
    let partial = RunOptions {
        records: Some(&cut),
        stop: Some(stop.clone()),
        progress: Some(&mut progress),
        ..RunOptions::default()
    };
    let summary = run(&cut_plan, partial).unwrap();
    assert!((8..40).contains(&summary.games_counted), "{}", summary.games_counted);
    let kept = read_records(&cut).unwrap().len() as u64;
    assert_eq!(kept, summary.games_counted);
    assert_eq!(seen, kept);

    // A write cut short by the interruption is dropped on resume.
    let mut text = fs::read_to_string(&cut).unwrap();
    text.push_str("{\"run\":\"half a li");
    fs::write(&cut, text).unwrap();

    // Without resuming, the file is not touched.
    let refused = run(&plan, RunOptions { records: Some(&cut), ..RunOptions::default() }).unwrap_err();
    assert!(matches!(refused, ArenaError::RecordsExist { .. }), "{refused}");

    let resumed =
        run(&plan, RunOptions { records: Some(&cut), resume: true, ..RunOptions::default() }).unwrap();
    assert_eq!(resumed.games_played_now, 40 - kept);
    assert_eq!(resumed.pairings, full.pairings);
    assert_eq!(games_of(&cut), games_of(&whole));

    // Another run's settings cannot resume this file.
    let other = Plan { seed: 12, ..match_plan(1) };
    let error =
        run(&other, RunOptions { records: Some(&cut), resume: true, ..RunOptions::default() }).unwrap_err();
    assert!(error.to_string().contains("another run"), "{error}");
    let _ = (fs::remove_file(whole), fs::remove_file(cut));

    // A file that is not a records file is never written, resumed or not.
    let precious = temp_file("precious.txt");
    for text in ["precious", "precious\n", "{\"other\": 1}\n"] {
        fs::write(&precious, text).unwrap();
        for resume in [false, true] {
            let error = run(&plan, RunOptions { records: Some(&precious), resume, ..RunOptions::default() })
                .unwrap_err();
            assert!(error.to_string().contains(&precious.display().to_string()), "{error}");
            assert_eq!(fs::read_to_string(&precious).unwrap(), text);
        }
    }
    let _ = fs::remove_file(precious);
}

#[test]
fn a_corrupt_records_file_is_a_clear_error() {
    let path = temp_file("corrupt.jsonl");
    fs::write(&path, "not json\n").unwrap();
    let error =
        run(&match_plan(1), RunOptions { records: Some(&path), resume: true, ..RunOptions::default() })
            .unwrap_err()
            .to_string();
    assert!(error.contains("line 1"), "{error}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "not json\n", "the file is left as it was");
    // A file that cannot be read says why once (not again as a cause).
    let missing = read_records(Path::new("/nonexistent/records.jsonl")).unwrap_err();
    assert!(missing.to_string().starts_with("records file /nonexistent/records.jsonl: "), "{missing}");
    assert!(std::error::Error::source(&missing).is_none());
    let _ = fs::remove_file(path);
}

#[test]
fn the_sprt_stops_a_lopsided_match_after_the_same_game_whatever_the_threads() {
    let plan = |threads| Plan {
        seed: 5,
        threads,
        sprt: Some(Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap()),
        ..Plan::new(Rules::tic_tac_toe(), vec![sharp("sharp"), random("random")], 2000)
    };
    let one = run(&plan(1), RunOptions::default()).unwrap();
    let three = run(&plan(3), RunOptions::default()).unwrap();
    let sprt = one.sprt.expect("the match runs a test");
    assert_eq!(sprt.decision, Decision::H1, "{one}");
    assert!(sprt.games < 2000 && sprt.llr >= sprt.upper);
    assert_eq!(one.games_counted, sprt.games);
    assert_eq!(one.pairings, three.pairings);
    assert_eq!(one.sprt, three.sprt);
    assert!(one.pairings[0].elo.unwrap().elo > 100.0, "{one}");
}

#[test]
fn a_panicking_engine_forfeits_and_the_run_goes_on() {
    let fragile = Entrant::new("fragile", |_| Box::new(Fragile(0)));
    let plan = Plan { threads: 2, ..Plan::new(Rules::five_8x8(), vec![fragile, random("random")], 6) };
    let summary = run(&plan, RunOptions::default()).unwrap();
    let pairing = &summary.pairings[0];
    assert_eq!(pairing.results.losses, 6);
    assert_eq!(pairing.forfeits, 6);
}

#[test]
fn a_round_robin_rates_everyone() {
    let plan = Plan {
        format: Format::RoundRobin,
        seed: 3,
        threads: 2,
        ..Plan::new(Rules::tic_tac_toe(), vec![random("r1"), sharp("s1"), random("r2")], 60)
    };
    let summary = run(&plan, RunOptions::default()).unwrap();
    assert_eq!(summary.pairings.len(), 3);
    assert_eq!(summary.games_counted, 180);
    assert_eq!(summary.ratings.len(), 3);
    assert!(summary.ratings[0].elo == 0.0, "anchored at the first entrant");
    assert!(summary.ratings[1].elo > summary.ratings[0].elo, "{}", summary.rating_list());
    for rating in &summary.ratings {
        assert_eq!(rating.results.games(), 120);
    }
    let text = summary.to_string();
    assert!(text.contains("#2 s1") && text.contains("rank"), "{text}");
    let json = serde_json::to_string(&summary).unwrap();
    assert!(json.contains("\"ratings\""));
}

#[test]
fn side_to_move_after_an_opening_is_right() {
    // Openings of odd length make B the first to move in game 0.
    let path = temp_file("odd.jsonl");
    let plan = Plan {
        openings: Openings::Random { plies: 3 },
        ..Plan::new(Rules::five_8x8(), vec![random("a"), random("b")], 2)
    };
    run(&plan, RunOptions { records: Some(&path), ..RunOptions::default() }).unwrap();
    for line in games_of(&path) {
        let mut pos = Position::new(line.record.rules);
        line.record.opening.iter().for_each(|&cell| pos.play(cell).unwrap());
        assert_eq!(pos.side_to_move(), Side::O);
        assert!(!line.record.moves.is_empty());
    }
    let _ = fs::remove_file(path);
}

#[test]
fn records_altered_by_hand_are_refused_on_resume() {
    let path = temp_file("altered.jsonl");
    let plan = Plan { games: 6, ..match_plan(1) };
    run(&plan, RunOptions { records: Some(&path), ..RunOptions::default() }).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let cases = [
        // A result flipped…
        text.replacen("\"outcome\":\"x_wins\"", "\"outcome\":\"o_wins\"", 1),
        // …and a game's moves emptied.
        {
            let lines: Vec<&str> = text.lines().collect();
            let game: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
            let mut emptied = game.clone();
            emptied["moves"] = serde_json::json!([]);
            text.replacen(lines[1], &emptied.to_string(), 1)
        },
    ];
    for altered in cases {
        assert_ne!(altered, text);
        fs::write(&path, &altered).unwrap();
        let error = run(&plan, RunOptions { records: Some(&path), resume: true, ..RunOptions::default() })
            .unwrap_err();
        assert!(matches!(error, ArenaError::Corrupt { .. }), "{error}");
        assert!(read_records(&path).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), altered, "nothing written");
    }
    let _ = fs::remove_file(path);
}

#[test]
fn swap_records_altered_by_hand_are_refused() {
    let path = temp_file("swap-altered.jsonl");
    let plan = Plan {
        games: 6,
        opening_rule: play::OpeningRule::Swap2,
        openings: Openings::Empty,
        ..Plan::new(Rules::gomoku15(), vec![random("a"), random("b")], 6)
    };
    run(&plan, RunOptions { records: Some(&path), ..RunOptions::default() }).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let game: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let opener = game["swap"]["opener"].as_str().unwrap().to_owned();
    let mut flipped = game.clone();
    flipped["swap"]["opener"] = serde_json::json!(if opener == "X" { "O" } else { "X" });
    let mut removed = game.clone();
    removed.as_object_mut().unwrap().remove("swap");
    for (altered, says) in [(flipped, "its steps give"), (removed, "lacks a swap record")] {
        let altered = text.replacen(lines[1], &altered.to_string(), 1);
        assert_ne!(altered, text);
        fs::write(&path, &altered).unwrap();
        let error = read_records(&path).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
        let error = run(&plan, RunOptions { records: Some(&path), resume: true, ..RunOptions::default() })
            .unwrap_err();
        assert!(matches!(error, ArenaError::Corrupt { .. }), "{error}");
    }
    let _ = fs::remove_file(path);
}

#[test]
fn two_runs_never_write_one_records_file() {
    let path = temp_file("shared.jsonl");
    let held = play::files::lock_output(&path).unwrap();
    let error =
        run(&match_plan(1), RunOptions { records: Some(&path), ..RunOptions::default() }).unwrap_err();
    assert!(error.to_string().contains("another program is writing"), "{error}");
    drop(held);
    run(&match_plan(1), RunOptions { records: Some(&path), ..RunOptions::default() }).unwrap();
    let _ = fs::remove_file(&path);
    let _ = fs::remove_file(path.with_extension("jsonl.lock"));
}

/// Plays at random and cannot keep what it learns.
struct ForgetfulLearner(RandomAgent);

impl Agent for ForgetfulLearner {
    fn name(&self) -> String {
        "forgetful".to_owned()
    }
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.0.select_move(pos, limits)
    }
    fn game_over(&mut self, _: &play::GameRecord) -> Result<(), AgentError> {
        Err(AgentError::failed("disk full"))
    }
}

#[test]
fn learning_that_was_not_saved_is_in_the_summary() {
    let forgetful = Entrant::new("forgetful", |seed| Box::new(ForgetfulLearner(RandomAgent::new(seed))));
    let plan = Plan::new(Rules::tic_tac_toe(), vec![forgetful, random("random")], 6);
    let summary = run(&plan, RunOptions::default()).unwrap();
    assert_eq!(summary.learning_errors, [("forgetful: disk full".to_owned(), 6)]);
    let quiet =
        run(&Plan::new(Rules::tic_tac_toe(), vec![random("a"), random("b")], 4), RunOptions::default());
    assert!(quiet.unwrap().learning_errors.is_empty());
}

/// Random moves; offered an opening, it always takes X (`swap`) or
/// always plays on as O.
struct Chooser {
    inner: RandomAgent,
    swaps: bool,
}

impl Agent for Chooser {
    fn name(&self) -> String {
        if self.swaps { "swapper" } else { "stayer" }.to_owned()
    }
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.inner.select_move(pos, limits)
    }
    fn choose_side(
        &mut self,
        pos: &Position,
        _: bool,
        limits: &Limits,
    ) -> Result<Option<play::SwapChoice>, AgentError> {
        Ok(Some(if self.swaps {
            play::SwapChoice::Swap
        } else {
            play::SwapChoice::Play(self.select_move(pos, limits)?)
        }))
    }
}

#[test]
fn a_swap_match_scores_players_by_the_colours_they_chose() {
    let chooser = |label: &str, swaps: bool| {
        Entrant::new(label, move |seed| Box::new(Chooser { inner: RandomAgent::new(seed), swaps }))
    };
    let records = temp_file("swap.jsonl");
    let plan = Plan {
        opening_rule: play::OpeningRule::Swap2,
        seed: 5,
        ..Plan::new(Rules::five_8x8(), vec![chooser("swapper", true), chooser("stayer", false)], 6)
    };
    let summary = run(&plan, RunOptions { records: Some(&records), ..RunOptions::default() }).unwrap();
    // The swapper takes X when the stayer opens, and the stayer leaves it
    // X when it opens: it is X in every game.
    let pairing = &summary.pairings[0];
    assert_eq!((pairing.a_as_x.games(), pairing.a_as_o.games(), pairing.forfeits), (6, 0, 0), "{summary}");
    assert!(summary.to_string().contains("swap2 openings"), "{summary}");
    for line in games_of(&records) {
        assert_eq!(line.specs[0], "swapper");
        assert_eq!(line.record.check(), Ok(()));
        let swap = line.record.swap.unwrap();
        // The engines open in turn: the swapper in even games.
        let opener_is_swapper = line.number % 2 == 0;
        assert_eq!(swap.opener == Side::X, opener_is_swapper, "{swap:?}");
    }
    // A swap rule puts its own openings.
    let both = Plan { openings: Openings::Random { plies: 2 }, ..plan };
    assert!(run(&both, RunOptions::default()).unwrap_err().to_string().contains("give no openings"));
    let _ = fs::remove_file(records);
}

#[test]
fn renju_opening_rules_run_through_the_arena_and_their_records_read_back() {
    for rule in [play::OpeningRule::Soosorv8, play::OpeningRule::Taraguchi10] {
        let records = temp_file(&format!("{rule}.jsonl"));
        let plan = Plan {
            opening_rule: rule,
            limits: play::Limits::nodes(20),
            ..Plan::new(Rules::renju(), vec![random("a"), random("b")], 4)
        };
        let summary = run(&plan, RunOptions { records: Some(&records), ..RunOptions::default() }).unwrap();
        assert!(summary.to_string().contains(&format!("{rule} openings")), "{summary}");
        let games = games_of(&records);
        assert_eq!(games.len(), 4);
        for line in games {
            assert_eq!(line.record.check(), Ok(()), "{rule}: {:?}", line.record);
            let swap = line.record.swap.expect("every step recorded");
            assert_eq!(swap.rule, rule);
            assert_eq!(play::opening_rules::rif::next_ask(rule, &swap.steps), Ok(None), "a whole opening");
            assert_eq!(line.record.opening.len(), 5);
        }
        let _ = fs::remove_file(records);
    }
}
