//! `cargo run --release`: play gomoku (or any m,n,k-game) in the terminal.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use board::Rules;
use clap::Parser;
use play::clock::TimeControl;
use tui::{App, Level, Player, Setup};

#[derive(Debug, Parser)]
#[command(name = "mnk-tui", version, about = "Play and watch the mnk engines in the terminal")]
struct Cli {
    /// Rules as W,H,K or W,H,K,RULE (RULE: freestyle, exact, renju, caro or
    /// caro-freestyle), or a preset: tictactoe, five8x8, gomoku15, gomoku20, renju, caro.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Who plays X: human, or an engine spec such as alphabeta:ms=500.
    #[arg(long, default_value = "human")]
    x: String,
    /// Who plays O: human, or an engine spec [default: alphabeta, or the
    /// first of mcts and pattern that plays the rules].
    #[arg(long)]
    o: Option<String>,
    /// Thinking time per engine move, in milliseconds (an untimed game).
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// Play on the clock: `MATCH[+INCREMENT][/TURN]` in seconds, such as
    /// 300+2 (300 s each, 2 s added a move) or 300/5 (at most 5 s a move).
    /// Engines think within their clock; a fallen flag loses.
    #[arg(long)]
    clock: Option<TimeControl>,
    /// How strongly the engines play: full, strong, club, casual or
    /// beginner (each searches a tenth of the positions of the one above).
    #[arg(long, default_value = "full")]
    level: Level,
    /// How the first stones are put: none, swap1 (X's player puts three
    /// stones, O's takes a colour), swap2 (or puts two more and lets X's
    /// player choose), or under renju the RIF's soosorv8 and taraguchi10.
    #[arg(long, default_value = "none")]
    opening: play::OpeningRule,
    /// Start from these stones: a standard renju opening by its code or
    /// name (1D to 13D, 1I to 13I: `4D`, `Kagetsu`) or moves such as
    /// `h8 h9 i9`, played in turn from X.
    #[arg(long, value_name = "OPENING", conflicts_with = "load")]
    from: Option<String>,
    /// Load a saved game, ours (JSON) or SGF (and save back to it with S).
    /// A finished game opens in review.
    #[arg(long)]
    load: Option<PathBuf>,
    /// Which game of an SGF collection to load, from 1.
    #[arg(long, default_value_t = 1, requires = "load")]
    game: usize,
    /// An analysis database beside the game (made if missing): the board
    /// shows what it holds of each move, analysis writes to it, and B, C,
    /// E, G edit it. A brain may share it at once.
    #[arg(long, value_name = "FILE")]
    database: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = roster::shell::parse_command_line::<Cli>();
    // Every bad flag is an error here, before the screen opens.
    let prepared = prepare(&cli).and_then(|mut app| {
        if let Some(path) = &cli.database {
            app.open_database(path)
                .map_err(|error| anyhow::anyhow!("--database {}: {error}", path.display()))?;
        }
        Ok(app)
    });
    let mut app = match prepared {
        Ok(app) => app,
        Err(error) => {
            eprintln!("error: {}", board::shorten_words(&format!("{error:#}")));
            return ExitCode::FAILURE;
        }
    };
    // The board is drawn on stdout and keys are read from the terminal:
    // without one (a pipe, CI) say so rather than fail inside the backend.
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!("error: mnk-tui is played in a terminal, and its input or output is not one");
        return ExitCode::FAILURE;
    }
    // Mouse capture is ours to undo on a panic; `try_init` adds the rest of
    // the terminal's restoration to the panic hook.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ =
            ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::event::DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = match ratatui::try_init() {
        Ok(terminal) => terminal,
        Err(error) => {
            ratatui::restore();
            eprintln!("error: cannot open the terminal: {error}");
            return ExitCode::FAILURE;
        }
    };
    let _ = ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::event::EnableMouseCapture);
    let result = tui::run(&mut terminal, &mut app);
    let _ = ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::event::DisableMouseCapture);
    ratatui::restore();
    if let Err(error) = result {
        eprintln!("error: {}", board::shorten_words(&format!("{error:#}")));
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// O's player: as given, else the default engine for the rules.
fn opponent(cli: &Cli) -> String {
    cli.o.clone().unwrap_or_else(|| {
        tui::app::default_engine(cli.rules)
            .map_or_else(|| tui::app::DEFAULT_ENGINE.to_owned(), |spec| spec.text().to_owned())
    })
}

fn prepare(cli: &Cli) -> Result<App> {
    if !(10..=600_000).contains(&cli.time_ms) {
        bail!("--time-ms must be from 10 to 600000, got {}", cli.time_ms);
    }
    let time = Duration::from_millis(cli.time_ms);
    if let Some(path) = cli.load.as_ref().filter(|path| !path.exists()) {
        // A file to be: a new game of the flags given, saved there with S.
        if path.parent().is_some_and(|folder| !folder.as_os_str().is_empty() && !folder.is_dir()) {
            bail!(
                "--load {}: no such file, and its folder does not exist to save a new game in",
                path.display()
            );
        }
        let mut app = App::new(setup_of(cli, time)?);
        app.start_file(path.clone());
        return Ok(app);
    }
    if let Some(path) = &cli.load {
        let mut loaded = tui::record::load(path, cli.game, time)?;
        if cli.clock.is_some() {
            loaded.setup.clock = cli.clock;
        }
        if cli.level != Level::Full {
            loaded.setup.level = cli.level;
        }
        let mut app = App::loaded(loaded);
        app.loaded_from(path.clone());
        return Ok(app);
    }
    let setup = setup_of(cli, time)?;
    if let Some(text) = &cli.from {
        if setup.opening.is_swap() {
            bail!(
                "--from starts from given stones, and --opening {} puts them by its own steps",
                setup.opening
            );
        }
        let (moves, note) =
            tui::setup::start_moves(text, setup.rules).map_err(anyhow::Error::msg).context("--from")?;
        return Ok(App::loaded(tui::record::Loaded {
            setup,
            moves,
            lost_on_time: None,
            note: Some(note),
            game: None,
            swap: None,
            under_way: None,
        }));
    }
    Ok(App::new(setup))
}

/// The game the flags describe, checked.
fn setup_of(cli: &Cli, time: Duration) -> Result<Setup> {
    let players = [Player::parse(&cli.x).context("--x")?, Player::parse(&opponent(cli)).context("--o")?];
    let setup = Setup {
        clock: cli.clock,
        level: cli.level,
        opening: cli.opening,
        ..Setup::new(cli.rules, players, time)
    };
    setup.check().map_err(anyhow::Error::msg)?;
    Ok(setup)
}
