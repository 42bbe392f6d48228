//! All the state of the game screen, and what each key does to it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use board::{Cell, Position, Rules, Side};
use play::{Agent, Analysis, Limits};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use roster::AgentSpec;

mod access;
mod analysing;
mod clocks;
mod dialog;
mod engines;
mod files;
mod help;
mod mode;
mod opening;
mod playing;
mod prompt;
mod reviewing;
mod rif;
mod study;

pub(crate) use dialog::draw_menu;
pub use help::KEYS;
pub(crate) use help::draw_help;
pub use mode::{Analysing, Mode, Prompt, Purpose as PromptPurpose};
pub(crate) use playing::panel_lines;
pub(crate) use prompt::draw_prompt;
pub(crate) use reviewing::draw_panel as draw_review;
pub(crate) use study::study_lines;
pub use study::{Study, point_mark};

use crate::engine::{Purpose, Thinking};
use crate::geometry::board_cell_at;
use crate::record::Loaded;
pub use crate::setup::{DEFAULT_ENGINE, DEFAULT_FILE, Player, Setup};
use play::clock::Clocks;

/// How long analysis mode thinks about one position at most.
const ANALYSIS_TIME: Duration = Duration::from_hours(1);

/// The engine O gets when none is named, and the one analysis, hints and
/// review fall back on where neither player is an engine that can:
/// `alphabeta`, or `mcts` on the boards it does not play (k below 4 or
/// above 8, caro-freestyle), or `pattern`.
#[must_use]
pub fn default_engine(rules: Rules) -> Option<AgentSpec> {
    [DEFAULT_ENGINE, "mcts", "pattern"]
        .iter()
        .filter_map(|name| name.parse::<AgentSpec>().ok())
        .find(|spec| spec.check_rules(&rules).is_ok())
}

/// What the heat map shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Heat {
    #[default]
    Off,
    /// The analysis' scores, in its own kind (evaluation, visit share…).
    Scores,
    /// The expected score of each cell, for engines that give one beside
    /// their scores (MCTS: the mean beside the visit share).
    Values,
}

impl Heat {
    /// The next view on `T`: off, scores, then values when the last
    /// analysis has them.
    #[must_use]
    pub fn next(self, analysis: Option<&Analysis>) -> Heat {
        let has_values = analysis.is_some_and(|a| !a.values.is_empty());
        match self {
            Heat::Off => Heat::Scores,
            Heat::Scores if has_values => Heat::Values,
            Heat::Scores | Heat::Values => Heat::Off,
        }
    }
}

/// Whether the person asked to quit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quit {
    No,
    /// Once, with the game unsaved: asked to confirm.
    Asked,
    Yes,
}

/// Whether `S` may write over the file: this session saved or loaded it,
/// or `S` was pressed once on it already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileClaim {
    /// A file this session has not written or read: `S` asks first.
    Foreign,
    /// `S` was pressed once on it: again overwrites it.
    Asked,
    /// Saved or loaded in this session.
    Owned,
}

/// The game screen: the game, the engines, and the mode the screen is in
/// (see [`Mode`]); read through its methods, changed through keys.
pub struct App {
    setup: Setup,
    pos: Position,
    cursor: Cell,
    /// Moves taken back, most recent last.
    redo: Vec<Cell>,
    /// What the screen is doing: playing, the dialog, analysis, review, help.
    mode: Mode,
    /// One line for the person: what just happened or went wrong.
    message: String,
    heat: Heat,
    /// Whether the stones show their move numbers (`#`).
    numbers: bool,
    /// Engines against each other, stopped between moves (`P`).
    paused: bool,
    /// Whether the person asked to quit (once, with the game unsaved).
    quit: Quit,
    /// `L` or `O` pressed once with the game unsaved: pressed again, it
    /// goes ahead and the game is lost.
    discard_asked: Option<char>,
    /// Moves made or taken back since the game was last saved or loaded.
    dirty: bool,
    /// Which game of its SGF collection the game is, when it came from one
    /// or was added to one: saving replaces that game.
    game_in_file: Option<usize>,
    /// A coordinate being typed, such as `h8`.
    typed: String,
    agents: [Option<Box<dyn Agent>>; 2],
    hint_agent: Option<Box<dyn Agent>>,
    thinking: Option<Thinking>,
    /// The last engine analysis (of a move or a hint), until a move it
    /// looked at is taken back.
    analysis: Option<Analysis>,
    /// The side to move in the position the analysis is of: its values
    /// are from that side's point of view.
    analysis_side: Side,
    hint: Option<Cell>,
    /// The engine of analysis mode, and its agent when not thinking: kept
    /// when the mode is left, for the next time.
    analysis_spec: Option<AgentSpec>,
    analysis_agent: Option<Box<dyn Agent>>,
    /// How many best lines analysis mode shows (`+`/`-`).
    analysis_lines: usize,
    /// What the review's engine may spend on each position.
    review_limits: Limits,
    /// The clocks of a timed game.
    clocks: Option<Clocks>,
    /// The side whose time ran out (in this session or the game loaded).
    time_loss: Option<Side>,
    /// Where remembered settings live (`None`: nothing is remembered).
    config_file: Option<PathBuf>,
    file: PathBuf,
    /// Whether `S` may write over `file`.
    claim: FileClaim,
    games: u64,
    /// For each side played by an engine that learns from its games: the
    /// games it has learned from so far.
    learning: [Option<u64>; 2],
    /// By side: why the learner's last game was not saved, if it was not.
    learning_lost: [Option<String>; 2],
    /// The screen area the board was last drawn in, for mouse clicks.
    screen: ratatui::layout::Rect,
    /// A swap opening under way (until the colours are settled).
    swap: Option<opening::SwapPhase>,
    /// The swap opening this game had, once settled.
    opening: Option<play::SwapRecord>,
    /// The analysis database open beside the game, if any.
    study: Option<Study>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("setup", &self.setup)
            .field("pos", &self.pos.to_one_line())
            .finish_non_exhaustive()
    }
}

impl App {
    /// A game read from a file: its moves played, its result kept, and
    /// reviewed at once if it is finished.
    #[must_use]
    pub fn loaded(loaded: Loaded) -> App {
        let mut app = App::new(loaded.setup.clone());
        app.start_loaded(loaded);
        app
    }

    /// A new game of `setup`.
    #[must_use]
    pub fn new(setup: Setup) -> App {
        let pos = Position::new(setup.rules);
        let mut app = App {
            cursor: centre(setup.rules),
            pos,
            setup,
            redo: Vec::new(),
            mode: Mode::Playing,
            message: String::new(),
            heat: Heat::Off,
            numbers: false,
            paused: false,
            quit: Quit::No,
            discard_asked: None,
            dirty: false,
            game_in_file: None,
            typed: String::new(),
            agents: [None, None],
            hint_agent: None,
            thinking: None,
            analysis: None,
            analysis_side: Side::X,
            hint: None,
            analysis_spec: None,
            analysis_agent: None,
            analysis_lines: 1,
            review_limits: Limits::time(Duration::from_millis(200)),
            clocks: None,
            time_loss: None,
            config_file: crate::config::default_path(),
            file: PathBuf::from(DEFAULT_FILE),
            claim: FileClaim::Foreign,
            games: 0,
            learning: [None, None],
            learning_lost: [None, None],
            screen: ratatui::layout::Rect::default(),
            swap: None,
            opening: None,
            study: None,
        };
        app.start(app.setup.clone(), Vec::new());
        app
    }

    /// Starts a game of `setup` and plays `moves` into it.
    fn start(&mut self, setup: Setup, moves: Vec<Cell>) {
        self.cancel_thinking();
        self.dirty = false;
        self.game_in_file = None;
        self.mode = Mode::Playing;
        self.analysis_agent = None;
        self.analysis_spec = None;
        self.games += 1;
        let seed = self.games;
        self.agents = [0, 1].map(|i| match &setup.players[i] {
            Player::Human => None,
            Player::Engine(spec) => {
                let mut agent = spec.build(board::mix_seed(seed, i as u64));
                agent.new_game(&setup.rules);
                Some(agent)
            }
        });
        self.learning = [0, 1].map(|i| self.agents[i].as_ref().and_then(play::Agent::games_learned));
        self.hint_agent = None;
        self.pos = Position::new(setup.rules);
        self.cursor = centre(setup.rules);
        self.clocks = setup.clock.map(Clocks::new);
        self.time_loss = None;
        self.setup = setup;
        self.redo.clear();
        self.analysis = None;
        self.hint = None;
        self.paused = false;
        self.opening = None;
        // A loaded game goes on from its moves, its opening long settled.
        self.swap = (self.setup.opening.is_swap() && moves.is_empty())
            .then(|| opening::SwapPhase::new(self.setup.opening));
        for cell in moves {
            if self.pos.play(cell).is_err() {
                break;
            }
        }
        self.message = format!("new game: {}", self.describe());
        if self.swap.is_some() {
            self.message = format!("{} — {}", self.message, self.opening_prompt());
        }
    }

    /// Starts a loaded game: a finished one (on the board or on time) is
    /// reviewed at once.
    pub(super) fn start_loaded(&mut self, loaded: Loaded) {
        let resumed = loaded.under_way.is_some();
        self.start(loaded.setup, if resumed { Vec::new() } else { loaded.moves.clone() });
        let moves = loaded.moves.len();
        self.message = format!("{}, {moves} move{}", self.describe(), if moves == 1 { "" } else { "s" });
        if self.swap.is_some() && !resumed {
            self.message = format!("{} — {}", self.message, self.opening_prompt());
        }
        // Its opening, settled: its stones stay when moves are taken back.
        self.opening = loaded.swap;
        // Or under way (checked when read): it goes on where it stood.
        if let (Some(under_way), Some(phase)) = (loaded.under_way, &mut self.swap) {
            phase.putting_two = under_way.putting_two;
            phase.rif.steps = under_way.steps;
            phase.rif.pending = under_way.pending;
            for &cell in &loaded.moves {
                if self.pos.play(cell).is_err() {
                    break;
                }
                self.cursor = cell;
            }
            self.message = format!("{} — {}", self.message, self.opening_prompt());
        }
        self.game_in_file = loaded.game;
        self.time_loss = loaded.lost_on_time;
        if self.over() {
            self.start_review();
        }
        if let Some(note) = loaded.note {
            self.message = format!("{} — {note}", self.message);
        }
    }

    fn describe(&self) -> String {
        let clock = self.setup.clock.map_or(String::new(), |clock| format!(", clock {clock}"));
        format!(
            "{} — X {} vs O {}{clock}",
            self.setup.rules,
            self.setup.players[0].text(),
            self.setup.players[1].text()
        )
    }

    /// Sets the message line.
    pub(super) fn say(&mut self, text: &str) {
        text.clone_into(&mut self.message);
    }

    /// Whose turn it is, if a person's.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        let seat = self.opening_seat().unwrap_or(self.pos.side_to_move().index());
        matches!(self.setup.players[seat], Player::Human)
    }

    /// Whether the game is over: on the board, or on time.
    #[must_use]
    pub fn over(&self) -> bool {
        self.pos.is_over() || self.lost_on_time().is_some()
    }

    /// Whether the game is being played (not studied): the clocks run
    /// then, and engines move.
    pub(super) fn playing(&self) -> bool {
        !self.over() && !self.paused && matches!(self.mode, Mode::Playing)
    }

    /// Says who won, when the game is over.
    pub(super) fn announce(&mut self) {
        self.message = match self.pos.outcome() {
            Some(board::Outcome::Win(side)) => {
                format!("{} wins! N for a new game, U to take back, V to review", side.mark())
            }
            Some(board::Outcome::Draw) => String::from("a draw. N for a new game, V to review"),
            None => match self.pos.last_move() {
                Some(cell) => format!(
                    "{} played {}",
                    self.pos.side_to_move().opponent().mark(),
                    cell.name(&self.setup.rules)
                ),
                None => String::new(),
            },
        };
    }

    /// Puts the side to move's mark on `cell`: the person's, or in
    /// analysis mode either side's.
    pub fn place(&mut self, cell: Cell) {
        if self.review().is_some() {
            self.say("reviewing: ←/→ step through the game, V to leave the review");
            return;
        }
        self.run_clocks(Instant::now());
        if self.over() {
            self.say("the game is over: N for a new game, U to take back, V to review");
            return;
        }
        if !self.is_analysing() && !self.human_to_move() {
            self.say("it is the engine's turn: M makes it move now");
            return;
        }
        if self.thinking.as_ref().is_some_and(|thinking| thinking.purpose != Purpose::Move) {
            self.cancel_thinking();
        }
        if self.swap.is_some() && !self.is_analysing() {
            self.place_in_opening(cell);
            return;
        }
        if !self.pos.is_legal(cell) {
            let why = self.pos.clone().play(cell).err().map_or_else(String::new, |err| err.to_string());
            self.message = format!("cannot play {}: {why}", cell.name(&self.setup.rules));
            return;
        }
        self.play_move(cell);
    }

    /// Plays `cell` for the side to move, its clock charged; false, with
    /// the message saying why, if its flag fell first or the move is
    /// refused.
    pub(super) fn play_move(&mut self, cell: Cell) -> bool {
        if !self.charge_clock(self.pos.side_to_move()) {
            return false;
        }
        match self.pos.play(cell) {
            Ok(()) => {
                self.cursor = cell;
                self.after_move();
                if !self.is_analysing() {
                    self.report_if_over();
                }
                true
            }
            Err(err) => {
                self.message = format!("cannot play {}: {err}", cell.name(&self.setup.rules));
                false
            }
        }
    }

    /// After a move: what could be redone and the hint no longer apply,
    /// the game is not saved, and the message says what was played.
    pub(super) fn after_move(&mut self) {
        self.redo.clear();
        self.dirty = true;
        self.hint = None;
        self.announce();
    }

    /// Takes back the last move, and the engine's reply with the person's
    /// (one move in analysis mode and review).
    pub fn undo(&mut self) {
        if self.swap.is_some() {
            self.say("the opening is being decided: N starts a new game");
            return;
        }
        self.cancel_thinking();
        let humans = self.setup.players.iter().filter(|p| matches!(p, Player::Human)).count();
        let one = humans == 0 || self.is_analysing() || self.review().is_some();
        let mut taken = 0;
        // A settled swap opening stays: its stones were put, not played.
        while self.pos.ply() > self.opening_stones()
            && let Some(cell) = self.pos.undo()
        {
            self.redo.push(cell);
            taken += 1;
            // Back to a person's turn (or one move, when engines play both).
            if one || self.human_to_move() {
                break;
            }
        }
        self.hint = None;
        if taken > 0 && !self.is_analysing() {
            // It was of a position no longer on the board, or about to change.
            self.analysis = None;
        }
        self.paused = humans == 0 && self.review().is_none();
        self.dirty |= taken > 0;
        self.message = if taken == 0 {
            String::from("nothing to take back")
        } else {
            format!("took back {taken} move(s)")
        };
    }

    /// Replays what was taken back, up to the person's next turn (one
    /// move in analysis mode and review).
    pub fn redo(&mut self) {
        self.cancel_thinking();
        let one = self.is_analysing() || self.review().is_some();
        let mut replayed = 0;
        while let Some(cell) = self.redo.pop() {
            if self.pos.play(cell).is_err() {
                self.redo.clear();
                self.dirty = true;
                break;
            }
            replayed += 1;
            if one || self.human_to_move() || self.pos.is_over() {
                break;
            }
        }
        self.dirty |= replayed > 0;
        self.message = if replayed == 0 {
            String::from("nothing to redo")
        } else {
            format!("replayed {replayed} move(s)")
        };
        if replayed > 0 && !one {
            self.report_if_over();
        }
    }

    /// When the game has just ended on the board, tells both engines (a
    /// learner learns from it) and says what could not be kept.
    pub(super) fn report_if_over(&mut self) {
        let Some(outcome) = self.pos.outcome() else {
            return;
        };
        let record = play::GameRecord {
            rules: self.setup.rules,
            players: [0, 1].map(|i| match &self.agents[i] {
                Some(agent) => agent.name(),
                None => self.setup.players[i].text(),
            }),
            // A settled swap opening's stones were put, not played.
            opening: self.pos.moves()[..self.opening_stones()].to_vec(),
            moves: self.pos.moves()[self.opening_stones()..]
                .iter()
                .map(|&cell| play::MoveRecord::new(cell, 0))
                .collect(),
            outcome,
            forfeit: None,
            swap: self.opening.clone(),
            learning_errors: Vec::new(),
        };
        let [x, o] = &mut self.agents;
        let lost: Vec<Option<String>> = [x, o]
            .into_iter()
            .map(|agent| {
                let agent = agent.as_mut()?;
                agent.game_over(&record).err().map(|error| format!("{}: {error}", agent.name()))
            })
            .collect();
        let errors: Vec<String> = lost.iter().flatten().cloned().collect();
        self.learning_lost = [lost[0].clone(), lost[1].clone()];
        self.learning = [0, 1].map(|i| self.agents[i].as_ref().and_then(play::Agent::games_learned));
        if !errors.is_empty() {
            self.message = format!("{} — {}", self.message, errors.join("; "));
        }
    }

    /// Starts a new game of `setup`, if its engines can play it.
    pub fn new_game(&mut self, setup: Setup) {
        match setup.check() {
            Ok(()) => self.start(setup, Vec::new()),
            Err(err) => self.message = err,
        }
    }

    /// Handles one key: Ctrl-C quits; else the mode's own handler.
    pub fn key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = Quit::Yes;
            return;
        }
        if key.code != KeyCode::Esc && key.code != KeyCode::Char('Q') && self.quit == Quit::Asked {
            self.quit = Quit::No;
        }
        // `L` or `O` twice in a row throws an unsaved game away.
        if self.discard_asked.is_some_and(|asked| key.code != KeyCode::Char(asked)) {
            self.discard_asked = None;
        }
        match &self.mode {
            Mode::Menu(_) => dialog::key(self, key),
            Mode::Help(_) => help::key(self),
            Mode::Prompt(_) => prompt::key(self, key),
            mode => {
                // `S` twice in a row overwrites a file this session does not own.
                if key.code != KeyCode::Char('S') && self.claim == FileClaim::Asked {
                    self.claim = FileClaim::Foreign;
                }
                if matches!(mode, Mode::Review(_)) {
                    reviewing::key(self, key);
                } else {
                    playing::key(self, key);
                }
            }
        }
    }

    /// Handles a mouse event: a left click on a cell places a mark there.
    pub fn mouse(&mut self, event: MouseEvent) {
        if event.kind == MouseEventKind::Down(MouseButton::Left)
            && !matches!(self.mode, Mode::Menu(_))
            && let Some(cell) = board_cell_at(self.screen, self.setup.rules, event.column, event.row)
        {
            self.cursor = cell;
            self.place(cell);
        }
    }
}

/// The centre cell.
fn centre(rules: Rules) -> Cell {
    Cell::new(rules.width() / 2, rules.height() / 2)
}
