//! What Yixin-Board asks of a brain beyond playing: blocked cells
//! (`YXBLOCK`, `YXBLOCKUNDO`), the moves that lose (`YXSEARCHDEFEND`),
//! balanced stones (`YXBALANCEONE`, `YXBALANCETWO`) and the lines it
//! draws while the engine thinks (`MESSAGE REALTIME`).

use std::io::{self, Write};
use std::time::Duration;

use board::{Cell, Position};
use play::balance::{Balanced, balance_one, balance_two};
use play::{Agent, Limits, Progress, RootStep};

use super::refusal::{Refusal, Reply};
use super::{Io, State};
use crate::protocol::format_cell;

/// Real-time lines start once a search has run this long, so that quick
/// answers stay quiet (the GUI draws them for long analyses).
const REALTIME_AFTER: Duration = Duration::from_millis(200);

/// The `MESSAGE REALTIME` lines of one search, written as the engine
/// reports: `POS x,y` as it enters a root move, `DONE x,y` when it has
/// searched it, `LOSE x,y` when it proved it lost; at each finished
/// depth `REFRESH`, then `BEST x,y`, `VAL v` and `PV` with the line.
pub(super) struct Realtime {
    progress: Progress,
    /// Analyses written so far.
    seen: u64,
}

impl Realtime {
    pub(super) fn new() -> Realtime {
        Realtime { progress: Progress::with_root_moves(), seen: 0 }
    }

    /// Where the engine reports.
    pub(super) fn progress(&self) -> Progress {
        self.progress.clone()
    }

    /// Writes what the engine reported since the last call, once the
    /// search has run `elapsed` past [`REALTIME_AFTER`].
    pub(super) fn write(&mut self, elapsed: Duration, output: &mut dyn Write) -> io::Result<()> {
        let events = self.progress.take_root_events();
        if elapsed < REALTIME_AFTER {
            return Ok(());
        }
        for event in events {
            let word = match event.step {
                RootStep::Entered => "POS",
                RootStep::Done => "DONE",
                RootStep::Lost => "LOSE",
            };
            writeln!(output, "MESSAGE REALTIME {word} {}", format_cell(event.cell))?;
        }
        let published = self.progress.published();
        if published != self.seen {
            self.seen = published;
            if let Some(analysis) = self.progress.latest()
                && let Some(best) = analysis.best_move
            {
                writeln!(output, "MESSAGE REALTIME REFRESH")?;
                writeln!(output, "MESSAGE REALTIME BEST {}", format_cell(best))?;
                if let Some(value) = analysis.value {
                    writeln!(output, "MESSAGE REALTIME VAL {value:.0}")?;
                }
                let line: Vec<String> = analysis.line.iter().map(|&cell| format_cell(cell)).collect();
                writeln!(output, "MESSAGE REALTIME PV {}", line.join(" "))?;
            }
        }
        output.flush()
    }
}

impl State<'_> {
    /// The end of a `YXBLOCK` (or, `remove`, `YXBLOCKUNDO`) block: its
    /// cells blocked (or freed). A cell off the board is refused, the
    /// others taken.
    pub(super) fn block_cells(&mut self, cells: &[Cell], remove: bool) -> Option<Refusal> {
        let rules = self.rules?;
        let mut refused = Vec::new();
        for &cell in cells {
            if !rules.contains(cell) {
                refused.push(format_cell(cell));
            } else if remove {
                self.blocked.remove(cell);
            } else {
                self.blocked.insert(cell);
            }
        }
        (!refused.is_empty())
            .then(|| Refusal::new(format!("cells off the board, not taken: {}", refused.join(" "))))
    }

    /// `YXSEARCHDEFEND`: half the move's time finds the moves after which
    /// the engine proves a win for the opponent (a `MESSAGE REALTIME
    /// LOSE x,y` each), the other half chooses among the rest (among all,
    /// if all lose); the move is played, as `BOARD`'s is.
    pub(super) fn search_defend(&mut self, io: &mut Io<'_>) -> Reply {
        let pos = self.position_to_play()?;
        let ask = |agent: &mut Box<dyn Agent>, pos: &Position, limits: &Limits| {
            let half = halve(limits);
            let losing = play::defence::losing_moves(agent, pos, &half)?;
            let mut excluded = limits.excluded;
            for &cell in &losing {
                excluded.insert(cell);
            }
            let left = (pos.cells_within(2) - excluded).iter().any(|cell| pos.is_legal(cell));
            let choose = Limits { excluded: if left { excluded } else { limits.excluded }, ..half };
            let cell = agent.select_move(pos, &choose)?;
            let cell = play::choose_allowed(pos, &choose, cell, agent.analysis().as_ref()).unwrap_or(cell);
            Ok::<_, play::AgentError>((losing, cell))
        };
        let (losing, cell) = Refusal::engine(self.run_engine(&pos, io, ask)?.0)?;
        let mut answer: String = losing
            .iter()
            .flat_map(|&lost| ["MESSAGE REALTIME LOSE ".to_owned(), format_cell(lost), "\n".to_owned()])
            .collect();
        self.stones.push((cell, pos.side_to_move()));
        answer.push_str(&format_cell(cell));
        Ok(answer)
    }

    /// `YXBALANCEONE` / `YXBALANCETWO`: the stones (the side to move's
    /// first) after which the engine judges the value nearest `target`
    /// for the side to move, within the move's time; a `MESSAGE` with the
    /// value reached, then the stones, which are put on the board.
    pub(super) fn balance(&mut self, stones: u8, target: i32, io: &mut Io<'_>) -> Reply {
        let pos = self.position_to_play()?;
        let target = f64::from(target);
        let ask = |agent: &mut Box<dyn Agent>, pos: &Position, limits: &Limits| {
            if stones == 1 {
                balance_one(agent, pos, target, limits)
            } else {
                balance_two(agent, pos, target, limits)
            }
        };
        let Balanced { stones: put, chance } = Refusal::engine(self.run_engine(&pos, io, ask)?.0)?;
        let value = Balanced { stones: Vec::new(), chance }.value();
        let mut side = pos.side_to_move();
        for &cell in &put {
            self.stones.push((cell, side));
            side = side.opponent();
        }
        let cells: Vec<String> = put.iter().map(|&cell| format_cell(cell)).collect();
        Ok(format!(
            "MESSAGE balance ev {value:.0} (target {target:.0}, chance {:.3})\n{}",
            chance,
            cells.join(" ")
        ))
    }
}

/// Half of `limits`' time and nodes (the stop flag and blocks kept).
fn halve(limits: &Limits) -> Limits {
    Limits {
        time: limits.time.map(|time| time / 2),
        max_time: limits.max_time.map(|time| time / 2),
        nodes: limits.nodes.map(|nodes| (nodes / 2).max(1)),
        ..limits.clone()
    }
}
