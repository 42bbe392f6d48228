//! Asking the judge: each worker runs its own judge (an external brain is
//! a process of its own), takes the next position, and hands what the
//! judge said to the one writer, which appends it at once. A judge keeps
//! its tables from one position to the next (a brain's `START` per
//! position would cost more than its search), so a label can depend a
//! little on what that judge saw before: labels are not repeatable bit
//! for bit, as searches at a time are not.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Result, bail};
use play::{Agent, Limits};
use roster::AgentSpec;

use super::file::{LabelSettings, LabelWriter};
use super::{Candidate, Label, chance_of, pack, position_of};

/// What a labelling run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// Positions labelled and written.
    pub labelled: u64,
    /// Positions the judge gave neither a value nor a proven result (left out).
    pub without_value: u64,
    /// Judge failures retried with a fresh judge.
    pub retried: u64,
}

/// How often a position is asked before the run stops: a brain that
/// failed is started afresh for the next try.
const ATTEMPTS: usize = 3;

/// What one position came to.
enum Answer {
    Label(Box<Label>),
    NoValue,
    Retried(String),
    Failed(String),
}

/// Has the judge of `spec` label every candidate, `threads` at once,
/// appending each label to `writer` as it comes and counting it on
/// `progress`. A judge that fails is started afresh and asked again, up
/// to three times in all; then the run stops (every label written stays:
/// resume).
///
/// # Errors
/// The judge failed every attempt on one position, or a label cannot be written.
pub fn judge_all(
    candidates: &[Candidate],
    settings: &LabelSettings,
    spec: &AgentSpec,
    threads: usize,
    writer: &mut LabelWriter,
    progress: &roster::shell::Progress,
) -> Result<Judged> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, answers) = mpsc::channel::<Answer>();
    let limits =
        Limits { nodes: settings.nodes, time: settings.ms.map(Duration::from_millis), ..Limits::none() };
    let mut judged = Judged::default();
    let mut failure = None;
    std::thread::scope(|scope| {
        for worker in 0..threads.max(1) {
            let sender = sender.clone();
            let (next, stop, limits) = (&next, &stop, &limits);
            scope.spawn(move || {
                let fresh = || {
                    let mut judge = spec.build(worker as u64);
                    judge.new_game(&settings.rules);
                    judge
                };
                let mut judge = fresh();
                while !stop.load(Ordering::Relaxed) {
                    let Some(candidate) = candidates.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let mut answer = ask(judge.as_mut(), candidate, settings, limits);
                    for _ in 1..ATTEMPTS {
                        let Answer::Failed(why) = answer else { break };
                        let _ = sender.send(Answer::Retried(why));
                        judge = fresh();
                        answer = ask(judge.as_mut(), candidate, settings, limits);
                    }
                    if sender.send(answer).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for answer in answers {
            match answer {
                Answer::Label(label) => {
                    if let Err(error) = writer.append(&label) {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(error.to_string());
                        continue;
                    }
                    judged.labelled += 1;
                    progress.inc(1);
                }
                Answer::NoValue => {
                    judged.without_value += 1;
                    progress.inc(1);
                }
                Answer::Retried(why) => {
                    // The first few are said; the count is in the summary.
                    if judged.retried < 3 {
                        eprintln!("{why}: asked again with the judge started afresh");
                    }
                    judged.retried += 1;
                }
                Answer::Failed(why) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(why);
                }
            }
        }
    });
    if let Some(why) = failure {
        bail!("{why} ({} labels written before: --resume goes on from them)", judged.labelled);
    }
    Ok(judged)
}

/// The judge's label of one candidate.
fn ask(judge: &mut dyn Agent, candidate: &Candidate, settings: &LabelSettings, limits: &Limits) -> Answer {
    let pos = match position_of(&candidate.moves, settings.rules) {
        Ok(pos) => pos,
        Err(why) => return Answer::Failed(format!("a position does not replay: {why}")),
    };
    let cell = match judge.select_move(&pos, limits) {
        Ok(cell) => cell,
        Err(error) => {
            return Answer::Failed(format!(
                "the judge failed on a position after {} moves: {error}",
                pos.ply()
            ));
        }
    };
    if !pos.is_legal(cell) {
        return Answer::Failed(format!(
            "the judge answered {}, not a legal move",
            cell.name(&settings.rules)
        ));
    }
    let analysis = judge.analysis().unwrap_or_default();
    let Some(chance) = chance_of(analysis.value, analysis.win_in, settings.scale) else {
        return Answer::NoValue;
    };
    Answer::Label(Box::new(Label {
        moves: candidate.moves.clone(),
        value: analysis.value.map(|value| value as f32),
        win_in: analysis.win_in,
        chance: chance as f32,
        best: Some(pack(cell)),
        result: candidate.result,
        game: candidate.game,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::file::{LabelFile, LabelHeader};
    use crate::label::sources::game_number;
    use arena::Shard;

    #[test]
    fn our_own_search_labels_positions_with_its_value_and_move() {
        let dir = std::env::temp_dir().join(format!("mnk-judge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("labels.bin");
        let _ = std::fs::remove_file(&path);
        let settings = LabelSettings {
            rules: "9,9,5".parse().unwrap(),
            judge: "alphabeta".to_owned(),
            nodes: Some(500),
            ms: None,
            scale: 1130.0,
            from_ply: 0,
        };
        let header = LabelHeader { settings: settings.clone(), shard: Shard::WHOLE, sources: vec![] };
        let mut writer = LabelWriter::create(&path, &header).unwrap();
        let candidates: Vec<Candidate> = [vec![4 << 8 | 4], vec![4 << 8 | 4, 5 << 8 | 5, 3 << 8 | 4]]
            .into_iter()
            .map(|moves| Candidate { moves, key: 0, result: 1, game: game_number("test", 0) })
            .collect();
        let spec: AgentSpec = "alphabeta".parse().unwrap();
        let progress = roster::shell::Progress::to(2, "positions", false);
        let judged = judge_all(&candidates, &settings, &spec, 2, &mut writer, &progress).unwrap();
        drop(writer);
        assert_eq!(judged.labelled + judged.without_value, 2);
        let file = LabelFile::read(&path).unwrap();
        assert_eq!(file.labels.len() as u64, judged.labelled);
        for label in &file.labels {
            let pos = label.position(settings.rules).unwrap();
            assert!(pos.is_legal(label.best_cell().unwrap()));
            assert!((0.0..=1.0).contains(&label.chance));
            if label.win_in.is_none() {
                let value = f64::from(label.value.unwrap());
                let expected = chance_of(Some(value), None, 1130.0).unwrap();
                assert!((f64::from(label.chance) - expected).abs() < 1e-6);
            }
        }
    }
}
