//! All the state of the game screen, and what each key does to it.

use std::path::PathBuf;
use std::time::Duration;

use board::{Agent, Analysis, Cell, Position, Rules, Side};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use crate::engine::Thinking;
use crate::geometry::board_cell_at;
use crate::menu::Menu;
use crate::record::GameFile;
pub use crate::setup::{DEFAULT_ENGINE, DEFAULT_FILE, Player, Setup};

/// What the heat map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heat {
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

/// The game screen.
#[allow(clippy::struct_excessive_bools, reason = "independent toggles of the screen")]
pub struct App {
    pub setup: Setup,
    pub pos: Position,
    pub cursor: Cell,
    /// Moves taken back, most recent last.
    redo: Vec<Cell>,
    /// One line for the person: what just happened or went wrong.
    pub message: String,
    pub heat: Heat,
    pub help: bool,
    pub paused: bool,
    pub quit: bool,
    /// A coordinate being typed, such as `h8`.
    pub typed: String,
    agents: [Option<Box<dyn Agent>>; 2],
    hint_agent: Option<Box<dyn Agent>>,
    pub thinking: Option<Thinking>,
    /// The last engine analysis (of a move or a hint), until a move it
    /// looked at is taken back.
    pub analysis: Option<Analysis>,
    /// The side to move in the position the analysis is of: its values
    /// are from that side's point of view.
    pub analysis_side: Side,
    pub hint: Option<Cell>,
    pub menu: Option<Menu>,
    pub file: PathBuf,
    /// Whether this session saved or loaded `file`, so `S` may write over it.
    owns_file: bool,
    /// Whether `S` was pressed once on a file this session does not own.
    overwrite_asked: bool,
    games: u64,
    /// For each side played by an engine that learns from its games: the
    /// games it has learned from so far.
    pub learning: [Option<u64>; 2],
    /// The screen area the board was last drawn in, for mouse clicks.
    pub screen: ratatui::layout::Rect,
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
    /// A game of `setup` with `moves` already played (a loaded game).
    #[must_use]
    pub fn with_moves(setup: Setup, moves: Vec<Cell>) -> App {
        let mut app = App::new(setup.clone());
        app.start(setup, moves);
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
            message: String::new(),
            heat: Heat::Off,
            help: false,
            paused: false,
            quit: false,
            typed: String::new(),
            agents: [None, None],
            hint_agent: None,
            thinking: None,
            analysis: None,
            analysis_side: Side::X,
            hint: None,
            menu: None,
            file: PathBuf::from(DEFAULT_FILE),
            owns_file: false,
            overwrite_asked: false,
            games: 0,
            learning: [None, None],
            screen: ratatui::layout::Rect::default(),
        };
        app.start(app.setup.clone(), Vec::new());
        app
    }

    /// Starts a game of `setup` and plays `moves` into it.
    fn start(&mut self, setup: Setup, moves: Vec<Cell>) {
        self.cancel_thinking();
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
        self.learning = [0, 1].map(|i| self.agents[i].as_ref().and_then(board::Agent::games_learned));
        self.hint_agent = None;
        self.pos = Position::new(setup.rules);
        self.cursor = centre(setup.rules);
        self.setup = setup;
        self.redo.clear();
        self.analysis = None;
        self.hint = None;
        self.paused = false;
        for cell in moves {
            if self.pos.play(cell).is_err() {
                break;
            }
        }
        self.message = format!("new game: {}", self.describe());
    }

    fn describe(&self) -> String {
        format!(
            "{} — X {} vs O {}",
            self.setup.rules,
            self.setup.players[0].text(),
            self.setup.players[1].text()
        )
    }

    /// Sets the message line.
    fn say(&mut self, text: &str) {
        text.clone_into(&mut self.message);
    }

    /// Whose turn it is, if a person's.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        matches!(self.setup.players[self.pos.side_to_move().index()], Player::Human)
    }

    /// Called every frame: collects finished searches and starts new ones.
    pub fn tick(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            match thinking.poll() {
                Ok(None) => {
                    self.thinking = Some(thinking);
                    return;
                }
                Ok(Some(reply)) => self.finish(&thinking, reply),
                Err(message) => {
                    self.message = message;
                    self.paused = true;
                }
            }
        }
        if self.pos.is_over() || self.paused || self.human_to_move() || self.menu.is_some() {
            return;
        }
        let side = self.pos.side_to_move().index();
        if let Some(agent) = self.agents[side].take() {
            self.thinking = Some(Thinking::start(agent, &self.pos, self.setup.time, false));
        }
    }

    fn finish(&mut self, thinking: &Thinking, reply: crate::engine::Reply) {
        if thinking.hint {
            self.hint_agent = Some(reply.agent);
        } else {
            let side = if thinking.ply.is_multiple_of(2) { Side::X } else { Side::O };
            self.agents[side.index()] = Some(reply.agent);
        }
        if thinking.ply != self.pos.ply() {
            return; // the game moved on (undo, new game): a stale answer
        }
        self.analysis = reply.analysis;
        self.analysis_side = self.pos.side_to_move();
        if self.heat == Heat::Values && self.analysis.as_ref().is_none_or(|a| a.values.is_empty()) {
            self.heat = Heat::Scores; // this engine gives no values
        }
        match reply.result {
            Ok(cell) if thinking.hint => {
                self.hint = Some(cell);
                self.message = format!("hint: {}", cell.name(&self.setup.rules));
            }
            Ok(cell) => match self.pos.play(cell) {
                Ok(()) => {
                    self.redo.clear();
                    self.hint = None;
                    self.announce();
                    self.report_if_over();
                }
                Err(err) => {
                    self.message = format!("the engine played an illegal move ({err}); paused");
                    self.paused = true;
                }
            },
            Err(err) => {
                self.message = format!("the engine could not move: {err}; paused");
                self.paused = true;
            }
        }
    }

    /// Says who won, when the game is over.
    fn announce(&mut self) {
        self.message = match self.pos.outcome() {
            Some(board::Outcome::Win(side)) => {
                format!("{} wins! N for a new game, U to take back", side.mark())
            }
            Some(board::Outcome::Draw) => String::from("a draw. N for a new game"),
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

    fn cancel_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
            // The agent comes back with the (now stale) reply; wait briefly.
            for _ in 0..200 {
                if let Ok(Some(reply)) = thinking.poll() {
                    self.finish(&thinking, reply);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// Puts the person's mark on `cell`.
    pub fn place(&mut self, cell: Cell) {
        if self.pos.is_over() {
            self.say("the game is over: N for a new game, U to take back");
            return;
        }
        if !self.human_to_move() {
            self.say("it is the engine's turn: M makes it move now");
            return;
        }
        if let Some(thinking) = &self.thinking
            && thinking.hint
        {
            self.cancel_thinking();
        }
        match self.pos.play(cell) {
            Ok(()) => {
                self.redo.clear();
                self.hint = None;
                self.cursor = cell;
                self.announce();
                self.report_if_over();
            }
            Err(err) => self.message = format!("cannot play {}: {err}", cell.name(&self.setup.rules)),
        }
    }

    /// Takes back the last move, and the engine's reply with the person's.
    pub fn undo(&mut self) {
        self.cancel_thinking();
        let humans = self.setup.players.iter().filter(|p| matches!(p, Player::Human)).count();
        let mut taken = 0;
        while let Some(cell) = self.pos.undo() {
            self.redo.push(cell);
            taken += 1;
            // Back to a person's turn (or one move, when engines play both).
            if humans == 0 || self.human_to_move() {
                break;
            }
        }
        self.hint = None;
        if taken > 0 {
            // It was of a position no longer on the board, or about to change.
            self.analysis = None;
        }
        self.paused = humans == 0;
        self.message = if taken == 0 {
            String::from("nothing to take back")
        } else {
            format!("took back {taken} move(s)")
        };
    }

    /// Replays what was taken back, up to the person's next turn.
    pub fn redo(&mut self) {
        self.cancel_thinking();
        let mut replayed = 0;
        while let Some(cell) = self.redo.pop() {
            if self.pos.play(cell).is_err() {
                self.redo.clear();
                break;
            }
            replayed += 1;
            if self.human_to_move() || self.pos.is_over() {
                break;
            }
        }
        self.message = if replayed == 0 {
            String::from("nothing to redo")
        } else {
            format!("replayed {replayed} move(s)")
        };
        if replayed > 0 {
            self.report_if_over();
        }
    }

    /// When the game has just ended on the board, tells both engines (a
    /// learner learns from it) and says what could not be kept.
    fn report_if_over(&mut self) {
        let Some(outcome) = self.pos.outcome() else {
            return;
        };
        let record = board::GameRecord {
            rules: self.setup.rules,
            players: [0, 1].map(|i| match &self.agents[i] {
                Some(agent) => agent.name(),
                None => self.setup.players[i].text(),
            }),
            opening: Vec::new(),
            moves: self.pos.moves().iter().map(|&cell| board::MoveRecord { cell, micros: 0 }).collect(),
            outcome,
            forfeit: None,
            learning_errors: Vec::new(),
        };
        let [x, o] = &mut self.agents;
        let errors: Vec<String> = [x, o]
            .into_iter()
            .filter_map(|agent| {
                let agent = agent.as_mut()?;
                agent.game_over(&record).err().map(|error| format!("{}: {error}", agent.name()))
            })
            .collect();
        self.learning = [0, 1].map(|i| self.agents[i].as_ref().and_then(board::Agent::games_learned));
        if !errors.is_empty() {
            self.message = format!("{} — {}", self.message, errors.join("; "));
        }
    }

    /// Asks the engine for a move suggestion for the person.
    pub fn ask_hint(&mut self) {
        if self.pos.is_over() || self.thinking.is_some() {
            self.say("no hint now");
            return;
        }
        let agent = if let Some(agent) = self.hint_agent.take() {
            agent
        } else {
            let engine = self.setup.players.iter().find_map(|p| match p {
                Player::Engine(spec) if spec.check_rules(&self.setup.rules).is_ok() => Some(spec.clone()),
                _ => None,
            });
            let Some(spec) = engine.or_else(|| DEFAULT_ENGINE.parse().ok()) else {
                self.say("no engine to ask for a hint");
                return;
            };
            let mut agent = spec.build(self.games);
            agent.new_game(&self.setup.rules);
            agent
        };
        self.say("thinking about a hint...");
        self.thinking = Some(Thinking::start(agent, &self.pos, self.setup.time, true));
    }

    /// Saves the game to the current file.
    /// The game came from `path`: `S` saves back to it without asking.
    pub fn loaded_from(&mut self, path: PathBuf) {
        self.file = path;
        self.owns_file = true;
    }

    /// A file this session did not write or read is overwritten only when
    /// `S` is pressed a second time in a row.
    pub fn save(&mut self) {
        if self.file.exists() && !self.owns_file && !self.overwrite_asked {
            self.overwrite_asked = true;
            self.message = format!("{} exists: press S again to overwrite it", self.file.display());
            return;
        }
        self.overwrite_asked = false;
        let file = GameFile::of(&self.setup, &self.pos);
        self.message = match file.save(&self.file) {
            Ok(()) => {
                self.owns_file = true;
                format!("saved to {}", self.file.display())
            }
            Err(err) => format!("cannot save: {err:#}"),
        };
    }

    /// Loads the game from the current file.
    pub fn load(&mut self) {
        match GameFile::load(&self.file).and_then(|file| file.setup(self.setup.time)) {
            Ok((setup, moves)) => {
                self.start(setup, moves);
                self.owns_file = true;
                self.message = format!("loaded {}", self.file.display());
            }
            Err(err) => self.message = format!("cannot load {}: {err:#}", self.file.display()),
        }
    }

    /// Starts a new game of `setup`, if its engines can play it.
    pub fn new_game(&mut self, setup: Setup) {
        match setup.check() {
            Ok(()) => self.start(setup, Vec::new()),
            Err(err) => self.message = err,
        }
    }

    /// Moves the cursor, staying on the board.
    fn step(&mut self, dx: i32, dy: i32) {
        let rules = self.setup.rules;
        if let Some(cell) = rules.cell(i32::from(self.cursor.x()) + dx, i32::from(self.cursor.y()) + dy) {
            self.cursor = cell;
        }
    }

    /// Handles one key.
    pub fn key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        if let Some(menu) = &mut self.menu {
            match menu.key(key) {
                crate::menu::Outcome::Stay => {}
                crate::menu::Outcome::Cancel => self.menu = None,
                crate::menu::Outcome::Start(setup) => {
                    self.menu = None;
                    self.new_game(setup);
                }
            }
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if key.code != KeyCode::Char('S') {
            self.overwrite_asked = false;
        }
        match key.code {
            KeyCode::Esc | KeyCode::Char('Q') => self.quit = true,
            KeyCode::Char('?') => self.help = true,
            KeyCode::Left => self.step(-1, 0),
            KeyCode::Right => self.step(1, 0),
            KeyCode::Up => self.step(0, -1),
            KeyCode::Down => self.step(0, 1),
            KeyCode::Char(' ') => self.place(self.cursor),
            KeyCode::Enter => self.enter(),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Char('U') => self.undo(),
            KeyCode::Char('R') => self.redo(),
            KeyCode::Char('N') => self.menu = Some(Menu::new(&self.setup)),
            KeyCode::Char('M') => match &self.thinking {
                Some(thinking) if !thinking.hint => thinking.stop(),
                _ => self.say("no engine is thinking"),
            },
            KeyCode::Char('H') => self.ask_hint(),
            KeyCode::Char('T') => self.heat = self.heat.next(self.analysis.as_ref()),
            KeyCode::Char('S') => self.save(),
            KeyCode::Char('L') => self.load(),
            KeyCode::Char('P') => {
                self.paused = !self.paused;
                self.say(if self.paused { "paused: P to go on, . for one move" } else { "going on" });
            }
            KeyCode::Char('.') => {
                self.paused = false;
                self.tick();
                self.paused = true;
            }
            KeyCode::Char(c) if c.is_ascii_lowercase() || c.is_ascii_digit() => self.type_char(c),
            _ => {}
        }
    }

    /// A letter or digit: part of a typed coordinate; `hjkl` also move.
    fn type_char(&mut self, c: char) {
        if c.is_ascii_lowercase() && self.typed.chars().any(|t| t.is_ascii_digit()) {
            self.typed.clear();
        }
        if self.typed.len() < 6 {
            self.typed.push(c);
        }
        if c.is_ascii_lowercase() && self.typed.len() == 1 {
            match c {
                'h' => self.step(-1, 0),
                'l' => self.step(1, 0),
                'k' => self.step(0, -1),
                'j' => self.step(0, 1),
                _ => {}
            }
        }
    }

    /// Enter: the typed coordinate, or the cursor.
    fn enter(&mut self) {
        let typed = std::mem::take(&mut self.typed);
        if typed.chars().any(|c| c.is_ascii_digit()) {
            match self.setup.rules.parse_cell(&typed) {
                Ok(cell) => self.place(cell),
                Err(err) => self.message = format!("cannot read {typed:?}: {err}"),
            }
        } else {
            self.place(self.cursor);
        }
    }

    /// Handles a mouse event: a left click on a cell places a mark there.
    pub fn mouse(&mut self, event: MouseEvent) {
        if event.kind == MouseEventKind::Down(MouseButton::Left)
            && self.menu.is_none()
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
