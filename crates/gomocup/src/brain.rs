//! The brain side: serve a [`play::Agent`] to a Gomocup manager over a
//! line-based input and output (stdin and stdout for a real brain).
//!
//! A reader thread turns input lines into a channel, so that while the
//! engine thinks on another thread the brain still hears `YXSTOP` (and
//! queues anything else for after its move). `END` while it thinks stops
//! the search at once; what came before `END` is still answered (a
//! search among it stopped at once too), then the brain ends. Every answer is one line,
//! flushed at once. A malformed or illegal command gets `ERROR` and what
//! was wrong; the brain keeps running.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use board::{Bitboard, Cell, Position, RuleSet, Rules, Side};
use play::{Agent, Limits, StopFlag, SwapChoice};

use crate::database_command::DatabaseCommand;
use crate::input::{self, Incoming, excerpt, read_lines};
use crate::protocol::{Command, format_cell, parse};

mod database;
mod refusal;
mod yixin;

use refusal::{Refusal, Reply, said};

pub use database::DEFAULT_DATABASE;

/// What the brain says of itself: `ABOUT`'s answer, and the most threads
/// its engine searches on (`YXSHOWINFO` advertises it; a larger
/// `thread_num` is brought down to it, with a `MESSAGE` saying so).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    /// The brain's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Who wrote it.
    pub author: String,
    /// Where from.
    pub country: String,
    /// The most threads the engine searches on, if it has a limit.
    pub max_threads: Option<usize>,
}

impl About {
    fn line(&self) -> String {
        format!(
            "name=\"{}\", version=\"{}\", author=\"{}\", country=\"{}\"",
            self.name, self.version, self.author, self.country
        )
    }
}

/// What the manager or GUI allows the engine, where it said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Memory in bytes (`INFO max_memory`).
    pub max_memory: Option<u64>,
    /// The table's size in bytes (`INFO hash_size`, in KiB): larger or
    /// smaller than the engine's own, within `max_memory`.
    pub table_bytes: Option<u64>,
    /// Threads (`INFO thread_num`).
    pub threads: Option<usize>,
    /// The analysis database the GUI has the brain use (`INFO
    /// usedatabase`, `YXSETDATABASE`), and whether the engine may write
    /// to it (not after `INFO database_readonly 1`).
    pub database: Option<(analysis_db::SharedDatabase, bool)>,
}

/// Builds the engine for a game: the rules and what the manager allows.
/// An `Err` is sent to the manager as `ERROR`.
pub type MakeAgent<'a> = dyn FnMut(Rules, Resources) -> Result<Box<dyn Agent>, String> + 'a;

/// "Unlimited" in `time_left` and `timeout_match`.
const UNLIMITED: u64 = 2_147_483_647;
/// Thinking time per move when the manager sets none.
const DEFAULT_TURN_MS: u64 = 5_000;

/// The largest table `YXSHOWINFO` offers, as Yixin-Board reads it: 2^e
/// KiB (4 GiB, the most `tt_mb` takes).
const MAX_HASH_SIZE_EXPONENT: u32 = 22;

/// What the brain knows between commands.
struct State<'a> {
    about: About,
    make: Box<MakeAgent<'a>>,
    rules: Option<Rules>,
    rule_set: RuleSet,
    agent: Option<Box<dyn Agent>>,
    /// Stones in the order they came, with their side.
    stones: Vec<(Cell, Side)>,
    /// Stones of a `BOARD` or `SWAP2BOARD` block being read.
    block: Option<Block>,
    timeout_turn: Option<u64>,
    time_left: Option<u64>,
    /// Positions a search may visit (`INFO max_node`).
    max_nodes: Option<u64>,
    resources: Resources,
    /// Cells the engine must not play (`YXBLOCK`), until `YXBLOCKRESET`
    /// or a new game.
    blocked: Bitboard,
    /// Root moves and best lines as the engine finds them, as
    /// `MESSAGE REALTIME` lines (`INFO show_detail` 1 or 3).
    realtime: bool,
    /// `END` arrived while the engine thought (the end of input lets it
    /// answer first).
    quit: bool,
    /// The analysis database in use, if any.
    database: database::DatabaseUse,
}

/// A block of stones being read, up to its `DONE`.
enum Block {
    /// `BOARD` (and `YXBOARD`, which sets the position without a move:
    /// `think` false): each stone with its owner (1 own, 2 the
    /// opponent's, 3 a continuous game's).
    Board { stones: Vec<(Cell, u8)>, think: bool },
    /// `SWAP2BOARD`: the opening's stones in the order they were put.
    Opening(Vec<Cell>),
    /// `YXBLOCK` (`remove` false) or `YXBLOCKUNDO`: cells to block or free.
    Cells { cells: Vec<Cell>, remove: bool },
    /// A database command's position: the moves from the empty board.
    Database { moves: Vec<Cell>, command: DatabaseCommand },
}

impl Block {
    /// The command that opened the block.
    fn command(&self) -> &'static str {
        match self {
            Block::Board { think: true, .. } => "BOARD",
            Block::Board { think: false, .. } => "YXBOARD",
            Block::Opening(_) => "SWAP2BOARD",
            Block::Cells { remove: false, .. } => "YXBLOCK",
            Block::Cells { remove: true, .. } => "YXBLOCKUNDO",
            Block::Database { .. } => "database position",
        }
    }
}

/// The brain's side of the pipe while a command runs: the lines still to
/// come, those read while the engine thought, and the output, for lines
/// written while it thinks.
struct Io<'a> {
    lines: &'a Receiver<Incoming>,
    pending: &'a mut VecDeque<Incoming>,
    output: &'a mut dyn Write,
}

/// Serves the protocol on `input` and `output` until `END` or the end of
/// the input.
///
/// # Errors
/// Only if writing to `output` fails.
pub fn serve<R, W>(input: R, mut output: W, about: About, make: Box<MakeAgent<'_>>) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (sender, lines) = mpsc::channel::<Incoming>();
    thread::spawn(move || {
        // A read error ends the input as its end does.
        let _ = read_lines(input, |line| sender.send(line).is_ok());
    });
    let mut state = State {
        about,
        make,
        rules: None,
        rule_set: RuleSet::Freestyle,
        agent: None,
        stones: Vec::new(),
        block: None,
        timeout_turn: None,
        time_left: None,
        max_nodes: None,
        resources: Resources::default(),
        blocked: Bitboard::EMPTY,
        realtime: false,
        quit: false,
        database: database::DatabaseUse::default(),
    };
    let mut pending: VecDeque<Incoming> = VecDeque::new();
    loop {
        let incoming = match pending.pop_front() {
            Some(incoming) => incoming,
            // END came while the engine thought: what came before it is
            // answered (any search in it stopped at once), then the end.
            None if state.quit => return Ok(()),
            None => match lines.recv() {
                Ok(incoming) => incoming,
                Err(_) => return Ok(()),
            },
        };
        let line = match incoming {
            Incoming::Line(line) => line,
            Incoming::TooLong(bytes) => {
                let limit = input::MAX_LINE;
                let why = format!("a line of {bytes} bytes, ignored: lines are at most {limit}");
                answer(&mut output, &said(Err(Refusal::new(why))))?;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let command = match parse(&line, state.block.is_some()) {
            Ok(command) => command,
            Err(error) => {
                answer(&mut output, &said(Err(Refusal::new(error.to_string()))))?;
                continue;
            }
        };
        if command == Command::End {
            return Ok(());
        }
        // A command other than a stone ends a block left open.
        if state.block.is_some()
            && !matches!(command, Command::Stone(..) | Command::OpeningStone(_) | Command::Done)
        {
            let name = state.block.take().map_or("", |block| block.command());
            let why = format!("a {name} block ended without DONE: ignored");
            answer(&mut output, &said(Err(Refusal::new(why))))?;
        }
        let mut io = Io { lines: &lines, pending: &mut pending, output: &mut output };
        let reply = state.handle(command, &mut io);
        if let Some(reply) = reply {
            answer(&mut output, &said(reply))?;
        }
    }
}

fn answer(output: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(output, "{line}")?;
    output.flush()
}

impl State<'_> {
    /// The answer to one command, if it has one.
    fn handle(&mut self, command: Command, io: &mut Io<'_>) -> Option<Reply> {
        match command {
            Command::Start(size) => Some(self.start(size, size)),
            Command::RectStart(width, height) => Some(self.start(width, height)),
            Command::Info(key, value) => self.info(&key, &value),
            Command::About => Some(Ok(self.about.line())),
            Command::Restart => Some(match self.rules {
                Some(rules) => {
                    self.new_game(rules);
                    Ok("OK".to_owned())
                }
                None => Err(Refusal::new("RESTART before START")),
            }),
            Command::Begin => Some(if self.stones.is_empty() {
                self.think(io)
            } else {
                Err(Refusal::new("BEGIN on a board that is not empty: use BOARD"))
            }),
            Command::Turn(cell) => Some(self.turn(cell, io)),
            Command::Board | Command::YxBoard => {
                self.block = Some(Block::Board { stones: Vec::new(), think: command == Command::Board });
                None
            }
            Command::HashClear => {
                if let (Some(agent), Some(rules)) = (&mut self.agent, self.rules) {
                    agent.new_game(&rules);
                }
                None
            }
            Command::ShowInfo => Some(Ok(format!(
                "MESSAGE INFO MAX_THREAD_NUM {}\nMESSAGE INFO MAX_HASH_SIZE {}",
                self.thread_cap(std::thread::available_parallelism().map_or(1, std::num::NonZero::get)),
                MAX_HASH_SIZE_EXPONENT
            ))),
            Command::Swap2Board => {
                self.block = Some(Block::Opening(Vec::new()));
                None
            }
            Command::Block | Command::BlockUndo => {
                self.block = Some(Block::Cells { cells: Vec::new(), remove: command == Command::BlockUndo });
                None
            }
            Command::BlockReset => {
                self.blocked = Bitboard::EMPTY;
                None
            }
            Command::SearchDefend => Some(self.search_defend(io)),
            Command::Balance(stones, target) => Some(self.balance(stones, target, io)),
            // The wrong kind of stone for the block drops it. A swap2
            // opening's stones are x,y, but some managers (and our external
            // agent, for brains such as Rapfi that read only that form)
            // write BOARD's x,y,who: the colours are by order all the same.
            Command::Stone(cell, who) => {
                match &mut self.block {
                    Some(Block::Board { stones, .. }) => stones.push((cell, who)),
                    Some(
                        Block::Opening(stones)
                        | Block::Cells { cells: stones, .. }
                        | Block::Database { moves: stones, .. },
                    ) => stones.push(cell),
                    None => {
                        return Some(Err(Refusal::new("x,y,who outside a BOARD block: ignored")));
                    }
                }
                None
            }
            Command::OpeningStone(cell) => {
                if let Some(
                    Block::Opening(stones)
                    | Block::Cells { cells: stones, .. }
                    | Block::Database { moves: stones, .. },
                ) = &mut self.block
                {
                    stones.push(cell);
                    return None;
                }
                self.block = None;
                Some(Err(Refusal::new(
                    "x,y outside a SWAP2BOARD block (BOARD's stones are x,y,who): the block is dropped",
                )))
            }
            // A stray DONE leaves the board as it is.
            Command::Done => match self.block.take() {
                None => {
                    Some(Err(Refusal::new("DONE without a BOARD block: ignored, the board is unchanged")))
                }
                Some(Block::Board { stones, think: true }) => Some(self.board(&stones, io)),
                Some(Block::Board { stones, think: false }) => self.set_board(&stones).err().map(Err),
                Some(Block::Opening(stones)) => Some(self.swap2(&stones, io)),
                Some(Block::Cells { cells, remove }) => self.block_cells(&cells, remove).map(Err),
                Some(Block::Database { moves, command }) => self.database_command(command, Some(&moves)),
            },
            Command::Database(command) if command.takes_position() => {
                self.block = Some(Block::Database { moves: Vec::new(), command });
                None
            }
            Command::Database(command) => self.database_command(command, None),
            Command::Takeback(cell) => Some(self.takeback(cell)),
            Command::Stop => None,
            Command::ShowForbid => Some(Ok(self.show_forbidden())),
            Command::NBest(lines_wanted) => Some(self.best_lines(lines_wanted as usize, io)),
            Command::End => unreachable!("handled by the loop"),
            Command::Unknown(line) => Some(Ok(format!("UNKNOWN command not understood: {}", excerpt(&line)))),
        }
    }

    fn start(&mut self, width: u32, height: u32) -> Reply {
        if !(5..=32).contains(&width) || !(5..=32).contains(&height) {
            return Err(Refusal::new(format!(
                "unsupported size {width}x{height}: boards from 5 to 32 cells a side"
            )));
        }
        let rules =
            Rules::new(width, height, 5, self.rule_set).map_err(|error| Refusal::new(error.to_string()))?;
        let agent = (self.make)(rules, self.resources.clone()).map_err(Refusal::new)?;
        self.agent = Some(agent);
        self.new_game(rules);
        Ok("OK".to_owned())
    }

    fn new_game(&mut self, rules: Rules) {
        self.rules = Some(rules);
        self.stones.clear();
        self.block = None;
        self.blocked = Bitboard::EMPTY;
        if let Some(agent) = &mut self.agent {
            agent.new_game(&rules);
        }
    }

    fn info(&mut self, key: &str, value: &str) -> Option<Reply> {
        let number = value.parse::<u64>().ok();
        match key {
            "timeout_turn" => self.timeout_turn = number,
            "time_left" => self.time_left = number.filter(|&left| left < UNLIMITED),
            "max_memory" => {
                let resources =
                    Resources { max_memory: number.filter(|&bytes| bytes > 0), ..self.resources.clone() };
                return self.rebuild(resources).map(Err);
            }
            // Yixin-Board's table size in KiB: the table takes half the
            // memory an engine is allowed.
            "hash_size" => {
                let bytes =
                    number.filter(|&kib| kib > 0).map(|kib| kib.min(1 << MAX_HASH_SIZE_EXPONENT) << 10);
                return self.rebuild(Resources { table_bytes: bytes, ..self.resources.clone() }).map(Err);
            }
            "thread_num" => {
                let asked = number.filter(|&threads| threads > 0).map(|threads| threads.min(256) as usize);
                let threads = asked.map(|threads| self.thread_cap(threads));
                let said = match (asked, threads) {
                    (Some(asked), Some(threads)) if threads < asked => Some(format!(
                        "MESSAGE thread_num {asked} is more than this engine searches on: {threads} threads"
                    )),
                    _ => None,
                };
                let refused = self.rebuild(Resources { threads, ..self.resources.clone() });
                return match (said, refused) {
                    (Some(said), Some(refused)) => Some(Err(refused.after(said))),
                    (said, refused) => said.map(Ok).or(refused.map(Err)),
                };
            }
            // -1 (or 0) for none.
            "max_node" => self.max_nodes = number.filter(|&nodes| nodes > 0),
            // 1 and 3 ask for the real-time lines (2 for details we do not keep).
            "show_detail" => self.realtime = matches!(number, Some(1 | 3)),
            "rule" => return self.set_rule(number, value).map(Err),
            "usedatabase" => return self.database_switch(number == Some(1)).map(Err),
            "database_readonly" => {
                let read_only = number == Some(1);
                let path = self.database.path.clone();
                return if path.is_some() {
                    self.use_database(path, Some(read_only)).map(Err)
                } else {
                    self.database.read_only = read_only;
                    None
                };
            }
            // timeout_match, game_type, folder, caution_factor, pondering
            // and the rest change nothing here: time_left carries the
            // match clock, and the engine neither ponders nor widens its
            // candidates on request.
            _ => {}
        }
        None
    }

    /// The engine built again within `resources` now (tables are sized
    /// when it is built), before the clock of a move runs; the game goes on.
    /// `threads`, or the engine's most if that is fewer.
    fn thread_cap(&self, threads: usize) -> usize {
        self.about.max_threads.map_or(threads, |most| threads.min(most))
    }

    fn rebuild(&mut self, resources: Resources) -> Option<Refusal> {
        if resources == self.resources {
            return None;
        }
        self.resources = resources;
        let rules = self.rules?;
        match (self.make)(rules, self.resources.clone()) {
            Ok(agent) => {
                self.agent = Some(agent);
                let stones = std::mem::take(&mut self.stones);
                let blocked = self.blocked;
                self.new_game(rules);
                (self.stones, self.blocked) = (stones, blocked);
                None
            }
            Err(error) => Some(Refusal::new(error)),
        }
    }

    /// `INFO rule`: the rule set, with the engine made again for it.
    fn set_rule(&mut self, number: Option<u64>, value: &str) -> Option<Refusal> {
        let Some(rule) = number else {
            return Some(Refusal::new(format!("INFO rule takes a whole number, got {value:?}")));
        };
        self.rule_set = match RuleSet::from_rule_number(rule) {
            Ok(rule_set) => rule_set,
            Err(error) => return Some(Refusal::new(format!("rule {rule}: {error}"))),
        };
        if let Some(rules) = self.rules
            && rules.rule_set() != self.rule_set
        {
            let changed = Rules::new(u32::from(rules.width()), u32::from(rules.height()), 5, self.rule_set)
                .expect("five in a row on the same board");
            // The engine is made for its rules: made again, or refused.
            match (self.make)(changed, self.resources.clone()) {
                Ok(agent) => self.agent = Some(agent),
                Err(error) => {
                    self.rules = None;
                    self.agent = None;
                    return Some(Refusal::new(format!("rule {rule}: {error}")));
                }
            }
            self.new_game(changed);
        }
        None
    }

    fn position(&self) -> Result<Position, String> {
        let rules = self.rules.ok_or("no game: send START first")?;
        // Stones in turn from X replay as moves (engines keep the history);
        // any other order becomes a setup.
        let in_turn = self
            .stones
            .iter()
            .enumerate()
            .all(|(i, &(_, side))| side == if i % 2 == 0 { Side::X } else { Side::O });
        if in_turn {
            let mut pos = Position::new(rules);
            for &(cell, _) in &self.stones {
                pos.play(cell).map_err(|error| error.to_string())?;
            }
            return Ok(pos);
        }
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for &(cell, side) in &self.stones {
            if side == Side::X { x.insert(cell) } else { o.insert(cell) }
        }
        Position::from_setup(rules, x, o).map_err(|error| error.to_string())
    }

    fn turn(&mut self, cell: Cell, io: &mut Io<'_>) -> Reply {
        let pos = self.position().map_err(Refusal::new)?;
        let mut after = pos.clone();
        if let Err(error) = after.play(cell) {
            return Err(Refusal::new(format!("TURN {}: {error}", format_cell(cell))));
        }
        self.stones.push((cell, pos.side_to_move()));
        let reply = self.think(io);
        if reply.is_err() {
            self.stones.pop();
        }
        reply
    }

    fn board(&mut self, block: &[(Cell, u8)], io: &mut Io<'_>) -> Reply {
        self.set_board(block)?;
        self.think(io)
    }

    /// Takes the position of a `BOARD` or `YXBOARD` block (1 the side to
    /// move's stones), or says why not, the board left as it was.
    fn set_board(&mut self, block: &[(Cell, u8)]) -> Result<(), Refusal> {
        let Some(rules) = self.rules else { return Err(Refusal::new("BOARD before START")) };
        if block.iter().any(|&(_, who)| who == 3) {
            return Err(Refusal::new("stones marked 3 (continuous game) are not supported"));
        }
        let own = block.iter().filter(|&&(_, who)| who == 1).count();
        let theirs = block.len() - own;
        let me = match own as i64 - theirs as i64 {
            0 => Side::X,
            -1 => Side::O,
            _ => {
                return Err(Refusal::new(format!(
                    "BOARD has {own} own and {theirs} opponent stones: one of us must be to move"
                )));
            }
        };
        let old = std::mem::take(&mut self.stones);
        for (i, &(cell, who)) in block.iter().enumerate() {
            if !rules.contains(cell) || block[..i].iter().any(|&(other, _)| other == cell) {
                self.stones = old;
                return Err(Refusal::new(format!(
                    "BOARD stone {} is off the board or given twice",
                    format_cell(cell)
                )));
            }
            self.stones.push((cell, if who == 1 { me } else { me.opponent() }));
        }
        if let Err(error) = self.position() {
            self.stones = old;
            return Err(Refusal::new(format!("BOARD: {error}")));
        }
        Ok(())
    }

    /// The swap2 choice on the opening `stones` (none, three or five), in
    /// a move's time; afterwards the board holds the opening with the
    /// stones the brain put, colours by their order.
    fn swap2(&mut self, stones: &[Cell], io: &mut Io<'_>) -> Reply {
        let Some(rules) = self.rules else { return Err(Refusal::new("SWAP2BOARD before START")) };
        let pos = play::opening_position(rules, stones)
            .map_err(|error| Refusal::new(format!("SWAP2BOARD: {error}")))?;
        if ![0, 3, 5].contains(&stones.len()) {
            let n = stones.len();
            return Err(Refusal::new(format!(
                "SWAP2BOARD with {n} stones: swap2 offers none, three or five"
            )));
        }
        let ask = |agent: &mut Box<dyn Agent>, pos: &Position, limits: &Limits| match stones.len() {
            0 => play::opening_rules::propose(agent, &rules, limits).map(|put| put.to_vec()),
            _ => play::opening_rules::choose_side(agent, pos, stones.len() == 3, limits).map(|choice| {
                match choice {
                    SwapChoice::Swap => Vec::new(),
                    SwapChoice::Play(cell) => vec![cell],
                    SwapChoice::PutTwo(two) => two.to_vec(),
                }
            }),
        };
        let put = Refusal::engine(self.run_engine(&pos, io, ask)?.0)?;
        self.stones = stones
            .iter()
            .chain(&put)
            .enumerate()
            .map(|(i, &cell)| (cell, if i % 2 == 0 { Side::X } else { Side::O }))
            .collect();
        if put.is_empty() {
            Ok("SWAP".to_owned())
        } else {
            Ok(put.iter().map(|&cell| format_cell(cell)).collect::<Vec<_>>().join(" "))
        }
    }

    /// `FORBID` and black's forbidden points as `xxyy` (two digits each),
    /// then `.`: none unless the game is renju and black is to move.
    fn show_forbidden(&self) -> String {
        use std::fmt::Write;
        let mut answer = String::from("FORBID ");
        if let Ok(pos) = self.position() {
            for cell in pos.forbidden_cells() {
                let _ = write!(answer, "{:02}{:02}", cell.x(), cell.y());
            }
        }
        answer.push('.');
        answer
    }

    fn takeback(&mut self, cell: Cell) -> Reply {
        match self.stones.iter().position(|&(stone, _)| stone == cell) {
            Some(index) => {
                self.stones.remove(index);
                Ok("OK".to_owned())
            }
            None => Err(Refusal::new(format!("TAKEBACK {}: there is no stone there", format_cell(cell)))),
        }
    }

    /// Asks the engine for a move, listening for `YXSTOP` meanwhile.
    fn think(&mut self, io: &mut Io<'_>) -> Reply {
        let pos = self.position_to_play()?;
        let (choice, started) = self.run_engine(&pos, io, Agent::select_move)?;
        let Some(agent) = self.agent.as_mut() else {
            return Err(Refusal::new("no engine: send START first"));
        };
        let analysis = agent.analysis();
        let chosen = Refusal::engine(choice)?;
        // An engine whose search does not read the blocks is kept off them here.
        let allowed = Limits::none().with_excluded(self.blocked);
        let Some(cell) = play::choose_allowed(&pos, &allowed, chosen, analysis.as_ref()) else {
            return Err(Refusal::new(format!(
                "the engine chose {}, which cannot be played",
                format_cell(chosen)
            )));
        };
        self.stones.push((cell, pos.side_to_move()));
        Ok(match analysis {
            Some(analysis) => {
                format!("{}\n{}", message(&analysis, *pos.rules(), started.elapsed()), format_cell(cell))
            }
            None => format_cell(cell),
        })
    }

    /// `YXNBEST`: the engine's best `count` lines within the move's time,
    /// a `MESSAGE` each (its number, depth, value and line), then the
    /// best move, played as `BOARD`'s is.
    fn best_lines(&mut self, count: usize, io: &mut Io<'_>) -> Reply {
        let pos = self.position_to_play()?;
        let ask = |agent: &mut Box<dyn Agent>, pos: &Position, limits: &Limits| {
            agent.analyze_lines(pos, limits, count)
        };
        let (found, started) = self.run_engine(&pos, io, ask)?;
        let analyses = Refusal::engine(found)?;
        // As a move: an engine whose search does not read the blocks is
        // kept off them here.
        let allowed = Limits::none().with_excluded(self.blocked);
        let Some(best) = analyses
            .first()
            .and_then(|analysis| play::choose_allowed(&pos, &allowed, analysis.best_move?, Some(analysis)))
        else {
            return Err(Refusal::new("the engine found no move that can be played"));
        };
        let elapsed = started.elapsed();
        let mut answer = String::new();
        for (number, analysis) in analyses.iter().enumerate() {
            let line = message(analysis, *pos.rules(), elapsed);
            answer.push_str(&line.replacen("MESSAGE", &format!("MESSAGE line {}", number + 1), 1));
            answer.push('\n');
        }
        self.stones.push((best, pos.side_to_move()));
        answer.push_str(&format_cell(best));
        Ok(answer)
    }

    /// The current position, if a move can be searched in it; else the
    /// error to answer.
    fn position_to_play(&self) -> Result<Position, Refusal> {
        let pos = self.position().map_err(Refusal::new)?;
        match pos.outcome() {
            Some(outcome) => Err(Refusal::new(format!("the game is over ({outcome:?})"))),
            None => Ok(pos),
        }
    }

    /// Runs `ask` on the engine in `pos` within the move's time (and
    /// `INFO max_node`, and off the blocked cells), listening for `YXSTOP`
    /// (stop now) and `END` meanwhile, and writing the real-time lines if
    /// asked for: what `ask` returned (`Err` if the engine panicked) and
    /// when it started; or the error to answer.
    fn run_engine<T: Send>(
        &mut self,
        pos: &Position,
        io: &mut Io<'_>,
        ask: impl FnOnce(&mut Box<dyn Agent>, &Position, &Limits) -> T + Send,
    ) -> Result<(Result<T, ()>, std::time::Instant), Refusal> {
        let stop = StopFlag::new();
        let started = std::time::Instant::now();
        let (planned, most) = budget(self.timeout_turn, self.time_left, pos.legal_move_count());
        let mut limits =
            Limits::time(planned).with_max_time(most).with_stop(stop.clone()).with_excluded(self.blocked);
        limits.nodes = self.max_nodes;
        let mut realtime = self.realtime.then(yixin::Realtime::new);
        if let Some(realtime) = &realtime {
            limits = limits.with_progress(realtime.progress());
        }
        let Some(agent) = self.agent.as_mut() else {
            return Err(Refusal::new("no engine: send START first"));
        };
        let quit = &mut self.quit;
        let choice = thread::scope(|scope| {
            let thinking = scope.spawn(|| ask(agent, pos, &limits));
            let mut input_open = true;
            while !thinking.is_finished() && !*quit {
                if input_open {
                    match io.lines.recv_timeout(Duration::from_millis(2)) {
                        Ok(Incoming::Line(line)) if line.trim().eq_ignore_ascii_case("YXSTOP") => stop.stop(),
                        Ok(Incoming::Line(line)) if line.trim().eq_ignore_ascii_case("END") => *quit = true,
                        Ok(incoming) => io.pending.push_back(incoming),
                        Err(RecvTimeoutError::Timeout) => {}
                        // The end of input (`printf 'START 15\r\nBEGIN\r\n' | pbrain-mnk`)
                        // lets the search finish and answer; then the brain ends.
                        Err(RecvTimeoutError::Disconnected) => input_open = false,
                    }
                } else {
                    thread::sleep(Duration::from_millis(2));
                }
                if let Some(realtime) = &mut realtime {
                    // A GUI that stopped reading is told nothing more.
                    let _ = realtime.write(started.elapsed(), &mut *io.output);
                }
            }
            if *quit {
                stop.stop();
            }
            let joined = thinking.join();
            if let Some(realtime) = &mut realtime
                && !*quit
            {
                let _ = realtime.write(started.elapsed(), &mut *io.output);
            }
            joined
        });
        Ok((choice.map_err(|_| ()), started))
    }
}

/// What the engine thought, as other brains tell it: depth and selective
/// depth, the score (or a forced win or loss in moves), nodes, speed,
/// time and the principal line.
fn message(analysis: &play::Analysis, rules: board::Rules, elapsed: Duration) -> String {
    use std::fmt::Write;
    let mut text = String::from("MESSAGE");
    if let Some(depth) = analysis.depth {
        let _ = write!(text, " depth {depth}");
        if let Some(selective) = analysis.selective_depth {
            let _ = write!(text, "-{selective}");
        }
    }
    // A forced result in plies for the side to move, as "+M5" or "-M4"
    // (as the strongest brains write it); from a search that proves moves
    // without a distance (MCTS-Solver), "win" or "loss"; a Monte-Carlo
    // mean as a winning chance.
    let proof = analysis.best_move.and_then(|best| analysis.proof(best));
    let _ = match (analysis.win_in, analysis.value) {
        (Some(plies), _) if plies > 0 => write!(text, " ev +M{plies}"),
        (Some(plies), _) => write!(text, " ev -M{}", -plies),
        _ if proof == Some(true) => write!(text, " ev win"),
        _ if proof == Some(false) => write!(text, " ev loss"),
        (None, Some(value)) if analysis.score_kind == play::ScoreKind::VisitShare => {
            write!(text, " ev {:.1}%", value * 100.0)
        }
        (None, Some(value)) => write!(text, " ev {value:.0}"),
        (None, None) => Ok(()),
    };
    let ms = elapsed.as_millis().max(1);
    let _ = write!(text, " n {} n/s {} tm {ms}", analysis.nodes, u128::from(analysis.nodes) * 1000 / ms);
    if !analysis.line.is_empty() {
        let line: Vec<String> = analysis.line.iter().map(|cell| cell.name(&rules).to_string()).collect();
        let _ = write!(text, " pv {}", line.join(" "));
    }
    text
}

/// Thinking time for a move with `empty` cells left, from the manager's
/// turn limit and match clock (ms): [`play::clock::move_budget`].
fn budget(timeout_turn: Option<u64>, time_left: Option<u64>, empty: usize) -> (Duration, Duration) {
    let turn = timeout_turn.filter(|&turn| turn > 0).unwrap_or(DEFAULT_TURN_MS);
    play::clock::move_budget(
        Some(Duration::from_millis(turn)),
        time_left.map(Duration::from_millis),
        Duration::ZERO,
        empty,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monte_carlo_analyses_show_a_winning_chance_or_a_proof() {
        let rules = board::Rules::tic_tac_toe();
        let best = board::Cell::new(1, 1);
        let mut analysis = play::Analysis {
            best_move: Some(best),
            score_kind: play::ScoreKind::VisitShare,
            value: Some(0.625),
            nodes: 5000,
            line: vec![best],
            ..play::Analysis::default()
        };
        let text = message(&analysis, rules, Duration::from_secs(1));
        assert!(text.contains(" ev 62.5% n 5000 n/s 5000 tm 1000 pv b2"), "{text}");
        analysis.proven = vec![play::CellScore { cell: best, score: 1.0 }];
        assert!(message(&analysis, rules, Duration::from_secs(1)).contains(" ev win "));
        analysis.proven[0].score = -1.0;
        assert!(message(&analysis, rules, Duration::from_secs(1)).contains(" ev loss "));
    }

    #[test]
    fn the_budget_keeps_within_the_turn_and_the_clock() {
        let ms = |(planned, most): (Duration, Duration)| (planned.as_millis(), most.as_millis());
        // A turn limit alone: no room to think longer.
        assert_eq!(ms(budget(Some(1_000), None, 200)), (950, 950));
        // A match clock: a share of it, up to three times that when needed.
        assert_eq!(ms(budget(Some(30_000), Some(180_000), 200)), (5_700, 17_100));
        // Little left on the clock: a small share, and a fifth at most.
        assert_eq!(ms(budget(Some(30_000), Some(10_000), 200)), (303, 950));
        assert_eq!(ms(budget(Some(30_000), Some(2_000), 200)), (36, 168));
        assert_eq!(ms(budget(None, Some(0), 10)), (5, 5));
    }
}
