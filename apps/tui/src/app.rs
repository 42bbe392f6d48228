//! All the state of the game screen, and what each key does to it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use board::{Agent, Analysis, Cell, Limits, Position, Rules, Side};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use roster::AgentSpec;

use crate::clock::Clocks;
use crate::config::Config;
use crate::engine::{Purpose, Thinking};
use crate::geometry::board_cell_at;
use crate::menu::Menu;
use crate::record::{self, Loaded};
use crate::review::Review;
pub use crate::setup::{DEFAULT_ENGINE, DEFAULT_FILE, Player, Setup};

/// How long analysis mode thinks about one position at most.
const ANALYSIS_TIME: Duration = Duration::from_hours(1);

/// The engine analysis, hints and review fall back on where neither
/// player is an engine that can: `alphabeta`, or `mcts` on the boards it
/// does not play (k below 4 or above 8).
fn default_engine(rules: Rules) -> Option<AgentSpec> {
    [DEFAULT_ENGINE, "mcts"]
        .iter()
        .filter_map(|name| name.parse::<AgentSpec>().ok())
        .find(|spec| spec.check_rules(&rules).is_ok())
}

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
    /// Analysis mode: an engine analyses the position until it changes;
    /// the person moves for both sides and engines do not play.
    pub analysing: bool,
    /// The engine of analysis mode, and its agent when not thinking.
    analysis_spec: Option<AgentSpec>,
    analysis_agent: Option<Box<dyn Agent>>,
    /// How many analyses the running analysis has published that are shown.
    analysis_seen: u64,
    /// The position (its hash) whose analysis finished by itself.
    analysis_done: Option<u64>,
    /// The game under review, if reviewing.
    pub review: Option<Review>,
    /// What the review's engine may spend on each position.
    pub review_limits: Limits,
    /// The clocks of a timed game.
    pub clocks: Option<Clocks>,
    /// The side whose time ran out (in this session or the game loaded).
    time_loss: Option<Side>,
    /// Where remembered settings live (`None`: nothing is remembered).
    pub config_file: Option<PathBuf>,
    pub file: PathBuf,
    /// Whether this session saved or loaded `file`, so `S` may write over it.
    owns_file: bool,
    /// Whether `S` was pressed once on a file this session does not own.
    overwrite_asked: bool,
    games: u64,
    /// For each side played by an engine that learns from its games: the
    /// games it has learned from so far.
    pub learning: [Option<u64>; 2],
    /// By side: why the learner's last game was not saved, if it was not.
    pub learning_lost: [Option<String>; 2],
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
            analysing: false,
            analysis_spec: None,
            analysis_agent: None,
            analysis_seen: 0,
            analysis_done: None,
            review: None,
            review_limits: Limits::time(Duration::from_millis(200)),
            clocks: None,
            time_loss: None,
            config_file: crate::config::default_path(),
            file: PathBuf::from(DEFAULT_FILE),
            owns_file: false,
            overwrite_asked: false,
            games: 0,
            learning: [None, None],
            learning_lost: [None, None],
            screen: ratatui::layout::Rect::default(),
        };
        app.start(app.setup.clone(), Vec::new());
        app
    }

    /// Starts a game of `setup` and plays `moves` into it.
    fn start(&mut self, setup: Setup, moves: Vec<Cell>) {
        self.cancel_thinking();
        self.review = None;
        self.analysing = false;
        self.analysis_agent = None;
        self.analysis_spec = None;
        self.analysis_done = None;
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
        self.clocks = setup.clock.map(Clocks::new);
        self.time_loss = None;
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

    /// Starts a loaded game: a finished one (on the board or on time) is
    /// reviewed at once.
    fn start_loaded(&mut self, loaded: Loaded) {
        self.start(loaded.setup, loaded.moves);
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
    fn say(&mut self, text: &str) {
        text.clone_into(&mut self.message);
    }

    /// Whose turn it is, if a person's.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        matches!(self.setup.players[self.pos.side_to_move().index()], Player::Human)
    }

    /// The side whose flag fell, if the game was lost on time.
    #[must_use]
    pub fn lost_on_time(&self) -> Option<Side> {
        self.time_loss
    }

    /// Whether the game is over: on the board, or on time.
    #[must_use]
    pub fn over(&self) -> bool {
        self.pos.is_over() || self.lost_on_time().is_some()
    }

    /// Whether the game is being played (not studied): the clocks run
    /// then, and engines move.
    fn playing(&self) -> bool {
        !self.over() && !self.paused && self.menu.is_none() && !self.analysing && self.review.is_none()
    }

    /// Called every frame: collects finished searches, shows what the
    /// analysis thinks, runs the clocks and starts new searches.
    pub fn tick(&mut self) {
        let now = Instant::now();
        self.collect();
        self.run_clocks(now);
        if self.analysing {
            self.keep_analysing();
            return;
        }
        if !self.playing() || self.human_to_move() || self.thinking.is_some() {
            return;
        }
        let side = self.pos.side_to_move();
        if let Some(agent) = self.agents[side.index()].take() {
            let limits = self.move_limits(side, now);
            self.thinking = Some(Thinking::start(agent, &self.pos, limits, Purpose::Move));
        }
    }

    /// What an engine may spend on its move: from its clock in a timed
    /// game, else the game's time a move.
    fn move_limits(&self, side: Side, now: Instant) -> Limits {
        match &self.clocks {
            Some(clocks) => {
                let (planned, most) =
                    clocks.control.budget(clocks.for_this_move(side, now), self.pos.legal_move_count());
                Limits::time(planned).with_max_time(most)
            }
            None => Limits::time(self.setup.time),
        }
    }

    /// Collects a finished search, and shows a running analysis' latest view.
    fn collect(&mut self) {
        let Some(thinking) = self.thinking.take() else { return };
        match thinking.poll() {
            Ok(None) => {
                if thinking.purpose == Purpose::Analysis
                    && thinking.progress.published() != self.analysis_seen
                {
                    self.analysis_seen = thinking.progress.published();
                    self.analysis = thinking.progress.latest();
                    self.analysis_side = self.pos.side_to_move();
                }
                self.thinking = Some(thinking);
            }
            Ok(Some(reply)) => self.finish(&thinking, reply),
            Err(message) => {
                self.message = message;
                self.paused = true;
            }
        }
    }

    /// Runs the side to move's clock while the game is played, and ends
    /// the game when a flag falls.
    fn run_clocks(&mut self, now: Instant) {
        let playing = self.playing();
        let side = self.pos.side_to_move();
        let Some(clocks) = &mut self.clocks else { return };
        if self.time_loss.is_some() {
            return;
        }
        if playing {
            clocks.run(side, now);
        } else {
            clocks.pause(now);
        }
        if let Some(fallen) = clocks.check(now) {
            self.flag_fell(fallen);
        }
    }

    fn flag_fell(&mut self, side: Side) {
        self.time_loss = Some(side);
        if let Some(thinking) = &self.thinking {
            thinking.stop();
        }
        self.message = format!(
            "{}'s time ran out: {} wins on time. N for a new game",
            side.mark().to_ascii_uppercase(),
            side.opponent().mark().to_ascii_uppercase()
        );
    }

    fn finish(&mut self, thinking: &Thinking, reply: crate::engine::Reply) {
        match thinking.purpose {
            Purpose::Hint => self.hint_agent = Some(reply.agent),
            Purpose::Move => {
                let side = if thinking.ply.is_multiple_of(2) { Side::X } else { Side::O };
                self.agents[side.index()] = Some(reply.agent);
            }
            Purpose::Analysis => {
                self.analysis_agent = Some(reply.agent);
            }
        }
        if thinking.key != self.pos.hash() || thinking.ply != self.pos.ply() {
            return; // the game moved on (undo, new game): a stale answer
        }
        if thinking.purpose == Purpose::Move && self.lost_on_time().is_some() {
            return; // too late: the flag fell first
        }
        self.analysis = reply.analysis;
        self.analysis_side = self.pos.side_to_move();
        if self.heat == Heat::Values && self.analysis.as_ref().is_none_or(|a| a.values.is_empty()) {
            self.heat = Heat::Scores; // this engine gives no values
        }
        match (thinking.purpose, reply.result) {
            (Purpose::Analysis, _) => {
                self.analysis_done = Some(self.pos.hash());
                if self.analysing {
                    self.say("analysis finished: the engine needs no more time here");
                }
            }
            (Purpose::Hint, Ok(cell)) => {
                self.hint = Some(cell);
                self.message = format!("hint: {}", cell.name(&self.setup.rules));
            }
            (Purpose::Move, Ok(cell)) => {
                let side = self.pos.side_to_move();
                if !self.charge_clock(side) {
                    return;
                }
                match self.pos.play(cell) {
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
                }
            }
            (_, Err(err)) => {
                self.message = format!("the engine could not move: {err}; paused");
                self.paused = true;
            }
        }
    }

    /// `side` is moving now: charges its clock (adding the increment).
    /// False, with the game lost on time, if its flag fell first.
    fn charge_clock(&mut self, side: Side) -> bool {
        let studying = self.analysing || self.review.is_some();
        let Some(clocks) = &mut self.clocks else { return true };
        if studying {
            return true;
        }
        let now = Instant::now();
        if clocks.moved(side, now) {
            // The other side's turn starts now.
            clocks.run(side.opponent(), now);
            true
        } else {
            self.flag_fell(side);
            false
        }
    }

    /// Says who won, when the game is over.
    fn announce(&mut self) {
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

    fn cancel_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
            // The agent comes back with the (now stale) reply; wait briefly.
            for _ in 0..400 {
                if let Ok(Some(reply)) = thinking.poll() {
                    self.finish(&thinking, reply);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            // An engine that does not stop keeps its thread; a new one is built.
            if thinking.purpose == Purpose::Analysis {
                self.analysis_agent = None;
            }
        }
    }

    /// Puts the side to move's mark on `cell`: the person's, or in
    /// analysis mode either side's.
    pub fn place(&mut self, cell: Cell) {
        if self.review.is_some() {
            self.say("reviewing: ←/→ step through the game, V to leave the review");
            return;
        }
        self.run_clocks(Instant::now());
        if self.over() {
            self.say("the game is over: N for a new game, U to take back, V to review");
            return;
        }
        if !self.analysing && !self.human_to_move() {
            self.say("it is the engine's turn: M makes it move now");
            return;
        }
        if self.thinking.as_ref().is_some_and(|thinking| thinking.purpose != Purpose::Move) {
            self.cancel_thinking();
        }
        if !self.pos.is_legal(cell) {
            let why = self.pos.clone().play(cell).err().map_or_else(String::new, |err| err.to_string());
            self.message = format!("cannot play {}: {why}", cell.name(&self.setup.rules));
            return;
        }
        if !self.charge_clock(self.pos.side_to_move()) {
            return;
        }
        match self.pos.play(cell) {
            Ok(()) => {
                self.redo.clear();
                self.hint = None;
                self.cursor = cell;
                self.announce();
                if !self.analysing {
                    self.report_if_over();
                }
            }
            Err(err) => self.message = format!("cannot play {}: {err}", cell.name(&self.setup.rules)),
        }
    }

    /// Takes back the last move, and the engine's reply with the person's
    /// (one move in analysis mode and review).
    pub fn undo(&mut self) {
        self.cancel_thinking();
        let humans = self.setup.players.iter().filter(|p| matches!(p, Player::Human)).count();
        let one = humans == 0 || self.analysing || self.review.is_some();
        let mut taken = 0;
        while let Some(cell) = self.pos.undo() {
            self.redo.push(cell);
            taken += 1;
            // Back to a person's turn (or one move, when engines play both).
            if one || self.human_to_move() {
                break;
            }
        }
        self.hint = None;
        if taken > 0 && !self.analysing {
            // It was of a position no longer on the board, or about to change.
            self.analysis = None;
        }
        self.paused = humans == 0 && self.review.is_none();
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
        let one = self.analysing || self.review.is_some();
        let mut replayed = 0;
        while let Some(cell) = self.redo.pop() {
            if self.pos.play(cell).is_err() {
                self.redo.clear();
                break;
            }
            replayed += 1;
            if one || self.human_to_move() || self.pos.is_over() {
                break;
            }
        }
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
            moves: self.pos.moves().iter().map(|&cell| board::MoveRecord::new(cell, 0)).collect(),
            outcome,
            forfeit: None,
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
        self.learning = [0, 1].map(|i| self.agents[i].as_ref().and_then(board::Agent::games_learned));
        if !errors.is_empty() {
            self.message = format!("{} — {}", self.message, errors.join("; "));
        }
    }

    /// The engine that hints, analyses and reviews: the first player's
    /// engine that can play the rules (and, with `stoppable`, think until
    /// stopped), else the default one; with a note when a player's
    /// engine was passed over.
    fn study_engine(&self, stoppable: bool) -> Option<(AgentSpec, Option<String>)> {
        let mut passed = None;
        for player in &self.setup.players {
            if let Player::Engine(spec) = player
                && spec.check_rules(&self.setup.rules).is_ok()
            {
                if !stoppable || spec.engine().stoppable {
                    return Some((spec.clone(), None));
                }
                passed.get_or_insert_with(|| spec.text().to_owned());
            }
        }
        let fallback = default_engine(self.setup.rules)?;
        let note = passed.map(|name| {
            format!("{name} does not think until stopped, so {} analyses", fallback.engine().name)
        });
        Some((fallback, note))
    }

    /// Asks the engine for a move suggestion for the person.
    pub fn ask_hint(&mut self) {
        if self.over() || self.thinking.is_some() || self.analysing || self.review.is_some() {
            self.say("no hint now");
            return;
        }
        let agent = if let Some(agent) = self.hint_agent.take() {
            agent
        } else {
            let Some((spec, _)) = self.study_engine(false) else {
                self.say("no engine to ask for a hint");
                return;
            };
            let mut agent = spec.build(self.games);
            agent.new_game(&self.setup.rules);
            agent
        };
        self.say("thinking about a hint...");
        self.thinking = Some(Thinking::start(agent, &self.pos, Limits::time(self.setup.time), Purpose::Hint));
    }

    /// `A`: analysis mode on or off.
    pub fn toggle_analysis(&mut self) {
        if self.analysing {
            self.cancel_thinking();
            self.analysing = false;
            self.say("analysis off: the game goes on");
            return;
        }
        if self.review.is_some() {
            self.say("leave the review (V) to analyse");
            return;
        }
        let Some((spec, note)) = self.study_engine(true) else {
            self.say("no engine here can analyse these rules");
            return;
        };
        self.cancel_thinking();
        if self.analysis_spec.as_ref().is_none_or(|kept| kept.text() != spec.text()) {
            self.analysis_agent = None;
        }
        self.analysis_spec = Some(spec.clone());
        self.analysing = true;
        self.analysis_done = None;
        if self.heat == Heat::Off {
            self.heat = Heat::Scores;
        }
        let mut message = format!("analysing with {}: play either side, U/R step, A to stop", spec.text());
        if let Some(note) = note {
            message = format!("{message} ({note})");
        }
        self.message = message;
    }

    /// The name of the engine analysing, in analysis mode.
    #[must_use]
    pub fn analysis_engine(&self) -> Option<&str> {
        self.analysis_spec.as_ref().filter(|_| self.analysing).map(AgentSpec::text)
    }

    /// In analysis mode: keeps an analysis of the current position running.
    fn keep_analysing(&mut self) {
        if self.thinking.is_some() || self.pos.is_over() || self.analysis_done == Some(self.pos.hash()) {
            return;
        }
        // The agent back from its last analysis, or a new one (also when
        // the last never stopped and was left to its thread).
        let agent = match (self.analysis_agent.take(), &self.analysis_spec) {
            (Some(agent), _) => agent,
            (None, Some(spec)) => {
                let mut agent = spec.build(self.games);
                agent.new_game(&self.setup.rules);
                agent
            }
            (None, None) => return,
        };
        self.analysis_seen = 0;
        self.thinking =
            Some(Thinking::start(agent, &self.pos, Limits::time(ANALYSIS_TIME), Purpose::Analysis));
    }

    /// `V`: reviews the game, or leaves the review at the game's end.
    pub fn toggle_review(&mut self) {
        if self.review.take().is_some() {
            self.go_to(usize::MAX); // back to where the game stands
            self.say("review closed");
            return;
        }
        self.start_review();
    }

    fn start_review(&mut self) {
        self.cancel_thinking();
        self.analysing = false;
        // The whole game: what is on the board and what was taken back.
        let mut moves = self.pos.moves().to_vec();
        moves.extend(self.redo.iter().rev());
        if moves.is_empty() {
            self.say("no moves to review");
            return;
        }
        // Engines that think until stopped report an analysis to read a
        // chance from, and stop when the review closes.
        let Some((spec, _)) = self.study_engine(true) else {
            self.say("no engine here can review these rules");
            return;
        };
        let mut agent = spec.build(self.games);
        agent.new_game(&self.setup.rules);
        self.go_to(usize::MAX);
        self.review = Some(Review::start(self.setup.rules, moves, agent, self.review_limits.clone()));
        self.message = format!("review by {}: ←/→ step, Home/End, V to leave", spec.text());
    }

    /// Takes moves back, or replays those taken back, until `plies` moves
    /// are on the board (or none is left to take back or replay).
    fn go_to(&mut self, plies: usize) {
        while self.pos.ply() > plies {
            match self.pos.undo() {
                Some(cell) => self.redo.push(cell),
                None => break,
            }
        }
        while self.pos.ply() < plies {
            let Some(cell) = self.redo.pop() else { break };
            if self.pos.play(cell).is_err() {
                break;
            }
        }
    }

    /// In review: shows the position after `plies` moves.
    pub fn review_to(&mut self, plies: usize) {
        if self.review.is_none() {
            return;
        }
        self.go_to(plies);
        self.analysis = None;
        self.message = match self.pos.last_move() {
            Some(cell) => format!(
                "move {}: {} {}",
                self.pos.ply(),
                self.pos.side_to_move().opponent().mark(),
                cell.name(&self.setup.rules)
            ),
            None => "the empty board".to_owned(),
        };
    }

    /// The game came from `path`: `S` saves back to it without asking.
    pub fn loaded_from(&mut self, path: PathBuf) {
        self.file = path;
        self.owns_file = true;
    }

    /// Saves the game to the current file (SGF if it ends in `.sgf`).
    /// A file this session did not write or read is overwritten only when
    /// `S` is pressed a second time in a row.
    pub fn save(&mut self) {
        if self.file.exists() && !self.owns_file && !self.overwrite_asked {
            self.overwrite_asked = true;
            self.message = format!("{} exists: press S again to overwrite it", self.file.display());
            return;
        }
        self.overwrite_asked = false;
        // The whole game, also in review or after moves were taken back.
        let mut whole = self.pos.clone();
        for &cell in self.redo.iter().rev() {
            if whole.play(cell).is_err() {
                break;
            }
        }
        self.message = match record::save(&self.file, &self.setup, &whole, self.lost_on_time()) {
            Ok(()) => {
                self.owns_file = true;
                format!("saved to {}", self.file.display())
            }
            Err(err) => format!("cannot save: {err:#}"),
        };
    }

    /// Loads the game from the current file.
    pub fn load(&mut self) {
        match record::load(&self.file, 1, self.setup.time) {
            Ok(loaded) => {
                self.start_loaded(loaded);
                self.owns_file = true;
                self.message = format!("loaded {} — {}", self.file.display(), self.message);
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

    /// The remembered settings (the defaults where none can be read).
    #[must_use]
    pub fn config(&self) -> Config {
        self.config_file.as_deref().and_then(|path| Config::load(path).ok()).unwrap_or_default()
    }

    /// Remembers the external brain of `setup`, if it has one.
    fn remember_brain(&mut self, setup: &Setup) {
        let Some(path) = self.config_file.clone() else { return };
        let brain = setup.players.iter().find_map(|player| match player {
            Player::Engine(spec) if spec.engine().name == "external" => crate::menu::brain_path(spec),
            _ => None,
        });
        let Some(brain) = brain else { return };
        // A config file that does not read is left as it is, not replaced.
        let saved = Config::load(&path).and_then(|mut config| {
            config.brain = Some(brain);
            config.save(&path)
        });
        if let Err(err) = saved {
            self.message = format!("{} — cannot remember the brain: {err:#}", self.message);
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
                    self.new_game(*setup);
                    let setup = self.setup.clone();
                    self.remember_brain(&setup);
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
        if let Some(review) = &self.review {
            let (at, len) = (self.pos.ply(), review.moves.len());
            match key.code {
                KeyCode::Left => return self.review_to(at.saturating_sub(1)),
                KeyCode::Right => return self.review_to(at + 1),
                KeyCode::Home => return self.review_to(0),
                KeyCode::End => return self.review_to(len),
                KeyCode::Esc | KeyCode::Char('V') => return self.toggle_review(),
                _ => {}
            }
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
            KeyCode::Char('N') => {
                let brain = self.config().brain;
                self.menu = Some(Menu::new(&self.setup, brain));
            }
            KeyCode::Char('M') => match &self.thinking {
                Some(thinking) if thinking.purpose == Purpose::Move => thinking.stop(),
                _ => self.say("no engine is thinking"),
            },
            KeyCode::Char('H') => self.ask_hint(),
            KeyCode::Char('A') => self.toggle_analysis(),
            KeyCode::Char('V') => self.toggle_review(),
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
