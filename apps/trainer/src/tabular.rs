//! `trainer matrix|montecarlo|td`: train a tabular learner in blocks of
//! games, measure it against random at checkpoints, and write the table,
//! the learning curve (CSV) and its plot (SVG).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use board::{Rules, mix_seed};
use serde::Serialize;
use tabular_rl::{
    KeySpace, MatrixParams, Opponent, Policy, ScoreTable, Seat, Table, TdLearner, TdParams, TrainingBlock,
    VersusRandom, WeightMatrix, versus_random,
};

use crate::plot::{Series, line_chart};
use roster::shell::write_file;

/// What every tabular learner takes.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Rules as W,H,K (boards of at most 40 cells), e.g. 3,3,3 or 4,4,3.
    #[arg(long, default_value = "3,3,3")]
    rules: Rules,
    /// Training games.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Seed of the training and evaluation games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where the table goes; the curve goes beside it as .csv and .svg.
    #[arg(long)]
    out: PathBuf,
    /// Key positions by symmetry class (false: by the exact position, as the classic).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    symmetric: bool,
    /// Games per point of the learning curve (the Monte-Carlo table trains
    /// at least 65,536 at a time, to keep every core busy).
    #[arg(long, default_value_t = 1000)]
    block: u64,
    /// Games against random, as X and as O, at each of the 10 checkpoints of the curve.
    #[arg(long, default_value_t = 2000)]
    checkpoint_games: u64,
    /// Games against random, as X and as O, after training.
    #[arg(long, default_value_t = 100_000)]
    eval_games: u64,
    /// Worker threads (Monte-Carlo training and evaluation).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// The Monte-Carlo table trains at least this many games at a time, so
/// that every worker has chunks of games to play.
const PARALLEL_BLOCK: u64 = 1 << 16;

/// The side the learner trains as.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SideArg {
    X,
    O,
    Random,
}

impl From<SideArg> for Seat {
    fn from(side: SideArg) -> Seat {
        match side {
            SideArg::X => Seat::X,
            SideArg::O => Seat::O,
            SideArg::Random => Seat::Random,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct MatrixArgs {
    #[command(flatten)]
    common: Common,
    /// The learner's side in training games.
    #[arg(long, value_enum, default_value = "random")]
    side: SideArg,
    /// Precision coefficient of the move draw.
    #[arg(long, default_value_t = 50.0)]
    precision: f64,
    /// Reward of the last move of a won game.
    #[arg(long, default_value_t = 20.0)]
    step_learn: f64,
    /// Factor of each earlier move's reward.
    #[arg(long, default_value_t = 0.65)]
    step_coef: f64,
}

#[derive(Debug, clap::Args)]
pub struct MonteCarloArgs {
    #[command(flatten)]
    common: Common,
}

/// What a TD learner's previous afterstate is pulled toward.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Target {
    /// The best value reachable (Q-learning).
    Q,
    /// The value of the move chosen (TD(0)).
    Td,
}

/// Who the TD learner plays while training.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum OpponentArg {
    Random,
    #[value(name = "self")]
    SelfPlay,
}

#[derive(Debug, clap::Args)]
pub struct TdArgs {
    #[command(flatten)]
    common: Common,
    /// The learner's side against random.
    #[arg(long, value_enum, default_value = "random")]
    side: SideArg,
    /// Learning rate; 0 for 1/n, each value the mean of its n targets.
    #[arg(long, default_value_t = 0.0)]
    alpha: f64,
    /// Discount per own move.
    #[arg(long, default_value_t = 0.95)]
    gamma: f64,
    /// Chance of a random move in training.
    #[arg(long, default_value_t = 0.3)]
    epsilon: f64,
    /// Learning target.
    #[arg(long, value_enum, default_value = "q")]
    target: Target,
    /// Training opponent.
    #[arg(long, value_enum, default_value = "random")]
    opponent: OpponentArg,
}

/// A learner being trained.
enum Learner {
    Matrix(WeightMatrix, Seat),
    Scores(ScoreTable),
    Td(TdLearner, Seat),
}

impl Learner {
    fn train(&mut self, games: u64, seed: u64) -> TrainingBlock {
        match self {
            Learner::Matrix(table, seat) => table.train(games, *seat, seed),
            Learner::Scores(table) => table.train(games, seed),
            Learner::Td(table, seat) => table.train(games, *seat, seed),
        }
    }

    fn policy(&self) -> &dyn Policy {
        match self {
            Learner::Matrix(table, _) => table,
            Learner::Scores(table) => table,
            Learner::Td(table, _) => table,
        }
    }

    fn entries(&self) -> usize {
        match self {
            Learner::Matrix(table, _) => table.situations(),
            Learner::Scores(table) => table.positions(),
            Learner::Td(table, _) => table.positions(),
        }
    }

    fn into_table(self) -> Table {
        match self {
            Learner::Matrix(table, _) => Table::Matrix(table),
            Learner::Scores(table) => Table::Scores(table),
            Learner::Td(table, _) => Table::Td(table),
        }
    }
}

/// One row of the learning curve.
#[derive(Clone, Copy, Debug, Serialize)]
struct CurveRow {
    games: u64,
    block: TrainingBlock,
    checkpoint: Option<VersusRandom>,
}

/// The end of a run, printed and returned.
#[derive(Debug, Serialize)]
struct Summary {
    learner: &'static str,
    rules: String,
    symmetric: bool,
    games: u64,
    seed: u64,
    training: TrainingBlock,
    entries: usize,
    seconds: f64,
    games_per_second: f64,
    versus_random: VersusRandom,
    table: String,
    curve_csv: String,
    curve_svg: String,
}

fn space(common: &Common) -> Result<KeySpace> {
    KeySpace::new(common.rules, common.symmetric).with_context(|| {
        format!(
            "tables hold boards of at most {} cells; {} has {}",
            tabular_rl::MAX_AREA,
            common.rules,
            common.rules.area()
        )
    })
}

fn check_probability(name: &str, value: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&value) {
        anyhow::bail!("--{name} must be between 0 and 1, got {value}");
    }
    Ok(())
}

pub fn matrix(args: &MatrixArgs) -> Result<()> {
    if !(args.precision > 0.0 && args.step_learn >= 0.0 && args.step_coef >= 0.0) {
        anyhow::bail!("--precision must be positive and --step-learn, --step-coef not negative");
    }
    let params =
        MatrixParams { precision: args.precision, step_learn: args.step_learn, step_coef: args.step_coef };
    let learner = Learner::Matrix(WeightMatrix::new(space(&args.common)?, params), args.side.into());
    run("matrix", &args.common, learner)
}

pub fn montecarlo(args: &MonteCarloArgs) -> Result<()> {
    run("montecarlo", &args.common, Learner::Scores(ScoreTable::new(space(&args.common)?)))
}

pub fn td(args: &TdArgs) -> Result<()> {
    check_probability("alpha", args.alpha)?;
    check_probability("gamma", args.gamma)?;
    check_probability("epsilon", args.epsilon)?;
    let params = TdParams {
        alpha: args.alpha,
        gamma: args.gamma,
        epsilon: args.epsilon,
        q_learning: matches!(args.target, Target::Q),
        opponent: match args.opponent {
            OpponentArg::Random => Opponent::Random,
            OpponentArg::SelfPlay => Opponent::SelfPlay,
        },
    };
    run("td", &args.common, Learner::Td(TdLearner::new(space(&args.common)?, params), args.side.into()))
}

fn run(name: &'static str, common: &Common, learner: Learner) -> Result<()> {
    if common.games == 0 || common.block == 0 {
        anyhow::bail!("--games and --block must be at least 1");
    }
    // Refuse before training, not after, if the table cannot be written.
    let folder = common.out.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !folder.is_dir() {
        anyhow::bail!("--out {}: the folder {} does not exist", common.out.display(), folder.display());
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = common.threads {
        if threads == 0 {
            anyhow::bail!("--threads must be at least 1");
        }
        builder = builder.num_threads(threads);
    }
    let pool = builder.build().context("cannot start the worker threads")?;
    pool.install(|| train(name, common, learner))
}

fn train(name: &'static str, common: &Common, mut learner: Learner) -> Result<()> {
    let bar = roster::shell::Progress::new(common.games, "games");
    let checkpoint_every = common.games.div_ceil(10).max(1);
    let mut rows = Vec::new();
    let mut training = TrainingBlock::default();
    let mut seconds = 0.0;
    let mut played = 0;
    let mut next_checkpoint = checkpoint_every;
    let block_size =
        if matches!(learner, Learner::Scores(_)) { common.block.max(PARALLEL_BLOCK) } else { common.block };
    while played < common.games {
        let games = block_size.min(common.games - played);
        let clock = Instant::now();
        let block = learner.train(games, mix_seed(common.seed, played));
        seconds += clock.elapsed().as_secs_f64();
        played += games;
        training = training.merged(block);
        let checkpoint = (played >= next_checkpoint || played == common.games).then(|| {
            next_checkpoint += checkpoint_every;
            versus_random(learner.policy(), common.checkpoint_games, mix_seed(common.seed ^ 0x5eed, played))
        });
        rows.push(CurveRow { games: played, block, checkpoint });
        bar.set_position(played);
        bar.set_message(format!(
            "learner won {:.1}% of the last block",
            block.learner.percent(block.learner.wins)
        ));
    }
    bar.finish();
    let results = versus_random(learner.policy(), common.eval_games, mix_seed(common.seed, u64::MAX));
    let entries = learner.entries();
    let table = learner.into_table();
    table.save(&common.out)?;
    let csv = common.out.with_extension("csv");
    let svg = common.out.with_extension("svg");
    write_file(&csv, &curve_csv(&rows))?;
    plot_curve(&svg, name, common.rules, &rows)?;
    let summary = Summary {
        learner: name,
        rules: common.rules.to_string(),
        symmetric: common.symmetric,
        games: common.games,
        seed: common.seed,
        training,
        entries,
        seconds,
        games_per_second: common.games as f64 / seconds.max(1e-9),
        versus_random: results,
        table: common.out.display().to_string(),
        curve_csv: csv.display().to_string(),
        curve_svg: svg.display().to_string(),
    };
    if common.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&summary);
    }
    Ok(())
}

fn curve_csv(rows: &[CurveRow]) -> String {
    let mut text = String::from(
        "games,learner_wins,learner_draws,learner_losses,x_wins,o_wins,draws,\
         as_x_wins,as_x_draws,as_x_losses,as_o_wins,as_o_draws,as_o_losses\n",
    );
    for row in rows {
        let b = &row.block;
        let _ = write!(
            text,
            "{},{},{},{},{},{},{}",
            row.games, b.learner.wins, b.learner.draws, b.learner.losses, b.x_wins, b.o_wins, b.draws
        );
        match row.checkpoint {
            Some(c) => {
                let _ = writeln!(
                    text,
                    ",{},{},{},{},{},{}",
                    c.as_x.wins, c.as_x.draws, c.as_x.losses, c.as_o.wins, c.as_o.draws, c.as_o.losses
                );
            }
            None => text.push_str(",,,,,,\n"),
        }
    }
    text
}

fn plot_curve(path: &Path, name: &str, rules: Rules, rows: &[CurveRow]) -> Result<()> {
    let training = Series {
        name: "learner's wins in training games".to_owned(),
        points: rows
            .iter()
            .map(|r| (r.games as f64, r.block.learner.percent(r.block.learner.wins)))
            .collect(),
    };
    let checkpoints: Vec<(u64, VersusRandom)> =
        rows.iter().filter_map(|r| r.checkpoint.map(|c| (r.games, c))).collect();
    let series = [
        training,
        Series {
            name: "wins as X against random".to_owned(),
            points: checkpoints.iter().map(|(g, c)| (*g as f64, c.as_x.percent(c.as_x.wins))).collect(),
        },
        Series {
            name: "wins as O against random".to_owned(),
            points: checkpoints.iter().map(|(g, c)| (*g as f64, c.as_o.percent(c.as_o.wins))).collect(),
        },
        Series {
            name: "losses as O against random".to_owned(),
            points: checkpoints.iter().map(|(g, c)| (*g as f64, c.as_o.percent(c.as_o.losses))).collect(),
        },
    ];
    line_chart(path, &format!("{name} on {rules}"), "training games", "% of games", (0.0, 100.0), &series)
}

fn print_summary(summary: &Summary) {
    let t = &summary.training;
    let share = |count: u64| 100.0 * count as f64 / t.games().max(1) as f64;
    println!(
        "{} on {} ({} keys), {} training games, seed {}",
        summary.learner,
        summary.rules,
        if summary.symmetric { "symmetric" } else { "classic" },
        summary.games,
        summary.seed
    );
    println!(
        "training games: X won {} ({:.1}%), O won {} ({:.1}%), drawn {} ({:.1}%); the learner won {}, drew {}, lost {}",
        t.x_wins,
        share(t.x_wins),
        t.o_wins,
        share(t.o_wins),
        t.draws,
        share(t.draws),
        t.learner.wins,
        t.learner.draws,
        t.learner.losses
    );
    println!(
        "table entries: {}; training took {:.2} s, {:.0} games per second",
        summary.entries, summary.seconds, summary.games_per_second
    );
    for (label, tally) in [("as X", summary.versus_random.as_x), ("as O", summary.versus_random.as_o)] {
        println!(
            "against random {label}: won {:.2}%, drew {:.2}%, lost {:.2}% of {} games",
            tally.percent(tally.wins),
            tally.percent(tally.draws),
            tally.percent(tally.losses),
            tally.games()
        );
    }
    println!("wrote {}, {} and {}", summary.table, summary.curve_csv, summary.curve_svg);
}
