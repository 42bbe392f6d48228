//! The manager side: an external brain executable driven through the
//! protocol, as a [`play::Agent`].
//!
//! The brain's stdout is read by a thread into a channel, so every wait
//! has a deadline: a brain that hangs is killed and its move is an error
//! (a loss by forfeit in a game), never a hang of ours. Its stderr is kept
//! (the last few kilobytes) for the error messages. Each position is sent
//! whole with `BOARD`, so the brain and the game cannot drift apart.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use board::{Cell, Position, Rules, Side};
use play::{Agent, AgentError, Analysis, Limits, SwapChoice};

use crate::message::{KEPT_LENGTH, KEPT_LINES, read_messages};
use crate::protocol::{format_cell, parse_cell};

/// How long a brain may take to answer `START` (it allocates its tables).
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// Thinking time per move when the game sets no limit.
const DEFAULT_TURN: Duration = Duration::from_secs(5);
/// Thinking time per move when the move is bounded by nodes alone: the
/// node budget ends the search, this only bounds a brain that ignores it.
const NODE_TURN: Duration = Duration::from_mins(5);
/// How long after an answer the next command waits: a brain may print
/// its move a moment before its protocol loop listens again, and some
/// drop what arrives in between (the sparring partner drops the first
/// word of the line, then reads the rest as commands of their own).
const SETTLE: Duration = Duration::from_millis(5);
/// Allowance beyond the turn limit for the brain's own overhead and the pipes.
const GRACE: Duration = Duration::from_secs(1);
/// Stderr kept for error messages.
const STDERR_TAIL: usize = 4096;

/// A running brain.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    rules: Rules,
}

/// An external brain as an agent.
pub struct ExternalAgent {
    path: PathBuf,
    args: Vec<String>,
    name: String,
    process: Option<Process>,
    stderr: Arc<Mutex<String>>,
    /// What went wrong outside a move (at `START`), told at the next move.
    failure: Option<String>,
    /// The `MESSAGE` lines of the move being chosen (a bounded few).
    messages: Vec<String>,
    /// What the brain said of its last move, as far as it could be read.
    analysis: Option<Analysis>,
    /// The node budget the brain was last told (`INFO max_node`; 0 none).
    max_node: u64,
    /// When the brain last answered, for [`SETTLE`].
    answered: Option<Instant>,
}

impl std::fmt::Debug for ExternalAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalAgent")
            .field("path", &self.path)
            .field("args", &self.args)
            .finish_non_exhaustive()
    }
}

impl ExternalAgent {
    /// The options of the `external` engine in a spec.
    #[must_use]
    pub fn options() -> Vec<play::EngineOption> {
        use play::{EngineOption, OptionKind};
        vec![
            EngineOption::without_default(
                "path",
                OptionKind::File,
                "the brain's executable, such as /opt/brains/pbrain-xyz; required",
            ),
            EngineOption::without_default(
                "args",
                OptionKind::Text,
                "arguments for the brain, separated by spaces; none unless given",
            ),
        ]
    }

    /// Why a Gomocup brain cannot play `rules`, if it cannot: the protocol
    /// is five in a row on boards of 5 to 32 cells a side.
    ///
    /// # Errors
    /// What is outside the protocol.
    pub fn check_rules(rules: &board::Rules) -> Result<(), String> {
        let fits = |side: u8| (5..=32).contains(&side);
        if rules.k() != 5 {
            Err(format!("Gomocup brains play five in a row, not k = {}", rules.k()))
        } else if !fits(rules.width()) || !fits(rules.height()) {
            Err("Gomocup boards are 5 to 32 cells a side".to_owned())
        } else {
            Ok(())
        }
    }

    /// A brain run as `path args...`; it is started at the first game.
    #[must_use]
    pub fn new(path: impl Into<PathBuf>, args: Vec<String>) -> ExternalAgent {
        let path = path.into();
        let name = format!(
            "external:{}",
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
        );
        ExternalAgent {
            path,
            args,
            name,
            process: None,
            stderr: Arc::new(Mutex::new(String::new())),
            failure: None,
            messages: Vec::new(),
            analysis: None,
            max_node: 0,
            answered: None,
        }
    }

    /// A failure of the brain named, with its stderr's last words.
    fn failed(&self, error: &str) -> AgentError {
        AgentError::failed(format!("{}: {error}{}", self.name, self.stderr_tail()))
    }

    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        if tail.trim().is_empty() { String::new() } else { format!(" (its stderr: {})", tail.trim()) }
    }

    fn spawn(&mut self, rules: Rules) -> Result<(), String> {
        let mut child = Command::new(&self.path)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", self.path.display()))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line.trim_end_matches('\r').to_owned()).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::clone(&self.stderr);
        thread::spawn(move || {
            let mut buffer = [0u8; 1024];
            while let Ok(read) = stderr.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                let mut kept = tail.lock().unwrap_or_else(PoisonError::into_inner);
                kept.push_str(&String::from_utf8_lossy(&buffer[..read]));
                if kept.len() > STDERR_TAIL {
                    let cut = kept.len() - STDERR_TAIL;
                    let cut = (cut..kept.len()).find(|&i| kept.is_char_boundary(i)).unwrap_or(kept.len());
                    kept.drain(..cut);
                }
            }
        });
        self.process = Some(Process { child, stdin, lines, rules });
        // A new process has been told nothing yet.
        self.max_node = 0;
        self.start(rules)
    }

    /// `START` (or `RECTSTART`) and the rule, on a running brain.
    fn start(&mut self, rules: Rules) -> Result<(), String> {
        let start = if rules.width() == rules.height() {
            format!("START {}", rules.width())
        } else {
            format!("RECTSTART {},{}", rules.width(), rules.height())
        };
        let rule = rules.rule_set().rule_number();
        self.send(&format!("INFO rule {rule}"))?;
        self.send(&start)?;
        let reply = self.reply(START_TIMEOUT)?;
        if reply.trim() != "OK" {
            return Err(format!("answered {reply:?} to {start}"));
        }
        if let Some(process) = &mut self.process {
            process.rules = rules;
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        if let Some(wait) = self.answered.take().and_then(|at| SETTLE.checked_sub(at.elapsed())) {
            thread::sleep(wait);
        }
        let process = self.process.as_mut().ok_or("the brain is not running")?;
        writeln!(process.stdin, "{line}")
            .and_then(|()| process.stdin.flush())
            .map_err(|error| format!("cannot write to the brain: {error}"))
    }

    /// The next line that is not `MESSAGE` or `DEBUG`; `ERROR` is a
    /// failure. The first few `MESSAGE` lines are kept (see
    /// [`ExternalAgent::analysis`]).
    fn reply(&mut self, timeout: Duration) -> Result<String, String> {
        let line = self.answer(timeout)?;
        if line.split_whitespace().next().is_some_and(|word| word.eq_ignore_ascii_case("ERROR")) {
            return Err(format!("the brain answered {line:?}"));
        }
        Ok(line)
    }

    /// The next line that is not `MESSAGE` or `DEBUG`, whatever it says.
    fn answer(&mut self, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let process = self.process.as_mut().ok_or("the brain is not running")?;
            let left = deadline.saturating_duration_since(Instant::now());
            match process.lines.recv_timeout(left) {
                Ok(line) => {
                    let word = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                    match word.as_str() {
                        "MESSAGE" => {
                            if self.messages.len() < KEPT_LINES {
                                let text = line.trim_start()["MESSAGE".len()..].trim();
                                let cut = (0..=text.len().min(KEPT_LENGTH))
                                    .rev()
                                    .find(|&i| text.is_char_boundary(i))
                                    .unwrap_or(0);
                                self.messages.push(text[..cut].to_owned());
                            }
                        }
                        "DEBUG" | "" => {}
                        _ => {
                            self.answered = Some(Instant::now());
                            return Ok(line);
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(format!(
                        "no answer within {} ms: the brain was stopped",
                        timeout.as_millis()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.kill();
                    return Err("the brain exited".to_owned());
                }
            }
        }
    }

    fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.child.kill();
            let _ = process.child.wait();
        }
    }

    fn ready(&mut self, rules: Rules) -> Result<(), String> {
        match self.process.as_ref().map(|p| p.rules) {
            None => self.spawn(rules),
            Some(current) if current != rules => self.start(rules),
            Some(_) => Ok(()),
        }
    }

    /// Ready for a decision under `rules`: the brain running, and told
    /// its time; returns the time it has for the answer.
    fn prepare(&mut self, rules: Rules, limits: &Limits) -> Result<Duration, String> {
        if rules.k() != 5 {
            return Err(format!("Gomocup brains play five in a row, not k = {}", rules.k()));
        }
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        self.ready(rules)?;
        // On a clock the brain is told the match time and what it has
        // left, and manages its time itself; else each move's time.
        let turn = match limits.clock {
            Some(reading) => {
                let turn = reading.control.turn.map_or(reading.left, |turn| turn.min(reading.left));
                self.send(&format!("INFO timeout_match {}", reading.control.total.as_millis()))?;
                self.send(&format!("INFO time_left {}", reading.left.as_millis()))?;
                turn
            }
            None => limits.time.unwrap_or(if limits.nodes.is_some() { NODE_TURN } else { DEFAULT_TURN }),
        };
        // A node budget is Yixin-Board's `INFO max_node` (0: none); told
        // only when it changes, so brains that never get one never see it.
        let max_node = limits.nodes.unwrap_or(0);
        if max_node != self.max_node {
            self.send(&format!("INFO max_node {max_node}"))?;
            self.max_node = max_node;
        }
        self.send(&format!("INFO timeout_turn {turn}", turn = turn.as_millis()))?;
        self.messages.clear();
        Ok(turn)
    }

    fn play(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, String> {
        let turn = self.prepare(*pos.rules(), limits)?;
        let mover = pos.side_to_move();
        self.send("BOARD")?;
        for (cell, side) in stones(pos) {
            self.send(&format!("{},{}", format_cell(cell), if side == mover { 1 } else { 2 }))?;
        }
        self.send("DONE")?;
        let reply = self.reply(turn + GRACE)?;
        let cell = parse_cell(&reply).map_err(|error| format!("answered {reply:?}: {error}"))?;
        self.analysis = read_messages(&self.messages, pos, cell);
        Ok(cell)
    }

    /// A swap2 decision: the opening's `stones` sent in a `SWAP2BOARD`
    /// block; the answer is `SWAP` or the stones the brain puts. A brain
    /// that answers anything else (`UNKNOWN`, `ERROR`) cannot play swap2.
    fn swap2(&mut self, rules: Rules, stones: &[Cell], limits: &Limits) -> Result<Swap2Answer, AgentError> {
        let asked = self.prepare(rules, limits).and_then(|turn| {
            // The stones as BOARD writes them (1 the side to move's, 2
            // the other's): Rapfi reads no other form, and brains that
            // read the protocol's x,y read past the third field.
            self.send("SWAP2BOARD")?;
            for (i, &cell) in stones.iter().enumerate() {
                let own = i % 2 == stones.len() % 2;
                self.send(&format!("{},{}", format_cell(cell), if own { 1 } else { 2 }))?;
            }
            self.send("DONE")?;
            self.answer(turn + GRACE).map_err(|error| format!("{error} to SWAP2BOARD"))
        });
        let reply = asked.map_err(|error| self.failed(&error))?;
        if reply.trim().eq_ignore_ascii_case("SWAP") {
            return Ok(Swap2Answer::Swap);
        }
        match reply.split_whitespace().map(parse_cell).collect::<Result<Vec<Cell>, _>>() {
            Ok(put) if !put.is_empty() => Ok(Swap2Answer::Put(put)),
            // Stones it put wrong (off the board, say) lose this game only;
            // an answer of no stones at all (UNKNOWN, ERROR) means the brain
            // cannot play swap2, and the run stops.
            Err(error) if reply.contains(',') => {
                Err(self.failed(&format!("answered {reply:?} to SWAP2BOARD: {error}")))
            }
            _ => Err(AgentError::unsupported(
                rules,
                format!("{}: cannot play swap2 openings: it answered {reply:?} to SWAP2BOARD", self.name),
            )),
        }
    }
}

/// What a brain answered a `SWAP2BOARD` block.
enum Swap2Answer {
    Swap,
    Put(Vec<Cell>),
}

/// The stones of `pos` in the order they were played, if it has a move
/// history, else row by row.
fn stones(pos: &Position) -> Vec<(Cell, Side)> {
    let marks = pos.occupied().count() as usize;
    if pos.moves().len() == marks {
        pos.moves()
            .iter()
            .enumerate()
            .map(|(i, &cell)| (cell, if i % 2 == 0 { Side::X } else { Side::O }))
            .collect()
    } else {
        pos.rules().cells().filter_map(|cell| pos.get(cell).map(|side| (cell, side))).collect()
    }
}

impl Agent for ExternalAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Starts the brain (or restarts its game) before the clock runs.
    fn new_game(&mut self, rules: &Rules) {
        if rules.k() != 5 {
            return;
        }
        let started = match self.process {
            Some(_) => self.start(*rules),
            None => self.spawn(*rules),
        };
        self.failure = started.err().map(|error| format!("{error}{}", self.stderr_tail()));
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.analysis = None;
        self.play(pos, limits).map_err(|error| self.failed(&error))
    }

    /// Asks the brain with an empty `SWAP2BOARD`.
    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<Option<[Cell; 3]>, AgentError> {
        self.analysis = None;
        match self.swap2(*rules, &[], limits)? {
            Swap2Answer::Put(put) if put.len() == 3 => Ok(Some([put[0], put[1], put[2]])),
            Swap2Answer::Put(put) => {
                Err(self.failed(&format!("answered {} stones to an empty SWAP2BOARD, not 3", put.len())))
            }
            Swap2Answer::Swap => Err(self.failed("answered SWAP to an empty SWAP2BOARD")),
        }
    }

    /// Asks the brain with the opening's stones in a `SWAP2BOARD` block:
    /// one stone is its move as O, two are two more stones. (The protocol
    /// knows swap2 only: under swap1 a brain that puts two more loses the
    /// game by forfeit.)
    fn choose_side(
        &mut self,
        pos: &Position,
        _: bool,
        limits: &Limits,
    ) -> Result<Option<SwapChoice>, AgentError> {
        self.analysis = None;
        match self.swap2(*pos.rules(), pos.moves(), limits)? {
            Swap2Answer::Swap => Ok(Some(SwapChoice::Swap)),
            Swap2Answer::Put(put) => match put[..] {
                [cell] => {
                    self.analysis = read_messages(&self.messages, pos, cell);
                    Ok(Some(SwapChoice::Play(cell)))
                }
                [first, second] => Ok(Some(SwapChoice::PutTwo([first, second]))),
                _ => Err(self.failed(&format!("answered {} stones to SWAP2BOARD, not 1 or 2", put.len()))),
            },
        }
    }

    /// What the brain's `MESSAGE` lines said of its last move (depth,
    /// evaluation, nodes, line), as far as they could be read.
    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}

impl Drop for ExternalAgent {
    fn drop(&mut self) {
        if self.process.is_some() {
            let _ = self.send("END");
            if let Some(process) = &mut self.process {
                let deadline = Instant::now() + Duration::from_millis(200);
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = process.child.try_wait() {
                        self.process = None;
                        return;
                    }
                    thread::sleep(Duration::from_millis(5));
                }
            }
            self.kill();
        }
    }
}
