//! Parsing a spec into a factory of agents.

use std::fmt;
use std::str::FromStr;

use board::Rules;
use play::Agent;
use thiserror::Error;

use analysis_db::SharedDatabase;

use crate::built::{Built, Maker, RulesCheck};
use crate::engines::{ENGINES, EngineInfo};
use crate::error::SpecError;
use crate::options::Options;

/// An engine that cannot play the rules it was given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{spec} cannot play {rules}: {reason}")]
pub struct Unsupported {
    /// The spec as written.
    pub spec: String,
    /// The rules, as `W,H,K`.
    pub rules: String,
    /// Why not.
    pub reason: String,
}

/// A parsed and checked engine spec: a factory of fresh agents.
#[derive(Clone)]
pub struct AgentSpec {
    text: String,
    engine: &'static EngineInfo,
    maker: Maker,
    rules_check: RulesCheck,
    learns: bool,
    /// The analysis database a program opened for it: see
    /// [`AgentSpec::with_store`].
    store: Option<(SharedDatabase, bool)>,
}

impl AgentSpec {
    /// Reads a spec: `name` or `name:key=value,key=value`.
    ///
    /// # Errors
    /// [`SpecError`] naming what was wrong and listing what is valid.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse_as(text, Source::Person, None)
    }

    /// Reads a spec that a file names (a saved game, a record): as
    /// [`AgentSpec::parse`], but refused before anything is built if it
    /// would start a program (an external brain) or name a file to read
    /// or write (weights, learning tables), since a file may come from
    /// anyone.
    ///
    /// # Errors
    /// [`SpecError::NotFromFile`] for such a spec, else as
    /// [`AgentSpec::parse`].
    pub fn parse_from_file(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse_as(text, Source::File, None)
    }

    fn parse_as(
        text: &str,
        source: Source,
        store: Option<(SharedDatabase, bool)>,
    ) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let (name, options) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty() {
            return Err(SpecError::Empty { valid: EngineInfo::engine_list() });
        }
        let engine = ENGINES.iter().find(|engine| engine.name == name).ok_or_else(|| {
            SpecError::UnknownEngine { name: name.clone(), valid: EngineInfo::engine_list() }
        })?;
        let options = Options::parse(engine.name, engine.options(), options)?.with_store(store.clone());
        if source == Source::File {
            if engine.starts_program {
                return Err(SpecError::NotFromFile {
                    engine: engine.name,
                    reason: "it starts a program".to_owned(),
                });
            }
            if let Some(option) = options.naming_files().next() {
                return Err(SpecError::NotFromFile {
                    engine: engine.name,
                    reason: format!("its option {option} names a file"),
                });
            }
        }
        let Built { maker, rules_check } = (engine.build)(&options)?;
        // Only engines with a `learn` option accept one, and their builder
        // has checked its value.
        let learns = options.is_true("learn");
        Ok(AgentSpec { text: text.to_owned(), engine, maker, rules_check, learns, store })
    }

    /// The same spec with the memory its engine's tables and trees take
    /// brought within `bytes` (a manager's `max_memory`): half of it for
    /// the alpha-beta table (`tt_mb`), three eighths for the Monte-Carlo
    /// trees (`tree_mb`: reusing a subtree copies it while the old tree is
    /// read, so a tree may briefly take twice its share); a spec that asks
    /// for less keeps its own, and engines without a table or tree are
    /// unchanged.
    ///
    /// # Errors
    /// [`SpecError`] if the spec no longer reads (never for one that did).
    pub fn within_memory(&self, bytes: u64) -> Result<AgentSpec, SpecError> {
        let (option, share) = match self.engine.name {
            "alphabeta" => ("tt_mb", bytes / 2),
            "mcts" | "uct" => ("tree_mb", bytes / 8 * 3),
            _ => return Ok(self.clone()),
        };
        let (_, given) = self.text.split_once(':').unwrap_or((&self.text, ""));
        let options = Options::parse(self.engine.name, self.engine.options(), given)?;
        let asked: u64 = options.get(option)?;
        let cap = (share >> 20).max(1);
        if asked <= cap { Ok(self.clone()) } else { self.with_option(option, &cap.to_string()) }
    }

    /// The bare alpha-beta search an `alphabeta` spec plays with under
    /// `rules` (its evaluation, weights, move policy and settings), for
    /// programs that measure the search itself: its root order, its
    /// cutoffs, its nodes to a depth.
    ///
    /// # Errors
    /// [`SpecError::Evaluation`] if the spec is not an `alphabeta` one or
    /// its evaluation cannot score `rules`.
    pub fn alphabeta_search(
        &self,
        rules: Rules,
    ) -> Result<minimax_tree::AlphaBeta<pattern_eval::Evaluation>, SpecError> {
        if self.engine.name != "alphabeta" {
            return Err(SpecError::Evaluation {
                name: self.text.clone(),
                reason: "only an alphabeta spec names an alpha-beta search".to_owned(),
            });
        }
        let (_, given) = self.text.split_once(':').unwrap_or((&self.text, ""));
        let options = Options::parse(self.engine.name, self.engine.options(), given)?;
        (self.rules_check)(&rules)
            .map_err(|reason| SpecError::Evaluation { name: self.text.clone(), reason })?;
        Ok(crate::engines::alphabeta_parts(&options)?.search(rules))
    }

    /// The same spec with its transposition table of `bytes` (a GUI's
    /// `hash_size`), larger or smaller, within the option's bounds, for
    /// engines that keep one; others are unchanged.
    ///
    /// # Errors
    /// [`SpecError`] if the spec no longer reads (never for one that did).
    pub fn with_table_bytes(&self, bytes: u64) -> Result<AgentSpec, SpecError> {
        let Some(option) = self.engine.options().into_iter().find(|option| option.name == "tt_mb") else {
            return Ok(self.clone());
        };
        let megabytes = match option.kind {
            play::OptionKind::Whole { min, max } => (bytes >> 20).clamp(min.max(1), max),
            _ => (bytes >> 20).max(1),
        };
        self.with_option("tt_mb", &megabytes.to_string())
    }

    /// The most threads its engine searches on, for engines that take a
    /// `threads` option.
    #[must_use]
    pub fn max_threads(&self) -> Option<usize> {
        self.engine.options().iter().find(|option| option.name == "threads").and_then(|option| {
            match option.kind {
                play::OptionKind::Whole { max, .. } => usize::try_from(max).ok(),
                _ => None,
            }
        })
    }

    /// The same spec searching on `threads` threads (a manager's or GUI's
    /// `thread_num`), for engines that take a `threads` option; others are
    /// unchanged.
    ///
    /// # Errors
    /// [`SpecError`] if the engine refuses that many threads.
    pub fn with_threads(&self, threads: usize) -> Result<AgentSpec, SpecError> {
        if self.engine.options().iter().any(|option| option.name == "threads") {
            self.with_option("threads", &threads.to_string())
        } else {
            Ok(self.clone())
        }
    }

    /// The same spec with an analysis database a program opened, which
    /// its searches share with the program (one opening of the file for
    /// a brain and all its games), writing what they find to it if
    /// `write`; it stands in for any `db=` of the spec. A spec whose engine
    /// reads no database is the same.
    ///
    /// # Errors
    /// [`SpecError`] if the spec no longer reads (never for one that did).
    pub fn with_store(&self, database: &SharedDatabase, write: bool) -> Result<AgentSpec, SpecError> {
        if !self.engine.options().iter().any(|option| option.name == "db") {
            return Ok(self.clone());
        }
        AgentSpec::parse_as(&self.text, Source::Person, Some((database.clone(), write)))
    }

    /// The analysis database a program opened for it, if any.
    #[must_use]
    pub fn database(&self) -> Option<&SharedDatabase> {
        self.store.as_ref().map(|(database, _)| database)
    }

    /// The same spec with `option` set to `value`, in place of any value
    /// it gave.
    fn with_option(&self, option: &str, value: &str) -> Result<AgentSpec, SpecError> {
        let (_, given) = self.text.split_once(':').unwrap_or((&self.text, ""));
        let prefix = format!("{option}=");
        let setting = format!("{prefix}{value}");
        let items: Vec<&str> = given
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty() && !item.to_ascii_lowercase().starts_with(&prefix))
            .chain([setting.as_str()])
            .collect();
        AgentSpec::parse_as(
            &format!("{}:{}", self.engine.name, items.join(",")),
            Source::Person,
            self.store.clone(),
        )
    }

    /// A fresh agent. `seed` varies the agent's random choices from game
    /// to game: it is mixed with the spec's own `seed` option, if any, so
    /// games differ yet repeat exactly for the same seeds.
    #[must_use]
    pub fn build(&self, seed: u64) -> Box<dyn Agent> {
        (self.maker)(seed)
    }

    /// Whether the engine can play `rules`; an agent built for rules it
    /// cannot play forfeits with the same reason at its first move. Every
    /// engine plays renju and caro (over `Position`'s legal moves, its win
    /// test, and where it keeps them the threat tables of each side's
    /// rule); what one cannot play — a board too large, caro-freestyle for
    /// the threat tables — its own check says.
    ///
    /// # Errors
    /// [`Unsupported`] saying why not.
    pub fn check_rules(&self, rules: &Rules) -> Result<(), Unsupported> {
        (self.rules_check)(rules).map_err(|reason| Unsupported {
            spec: self.text.clone(),
            rules: rules.to_string(),
            reason,
        })
    }

    /// Whether its agents learn from every game they finish (`learn=true`),
    /// so that games must be played one after another to learn in order.
    #[must_use]
    pub fn learns(&self) -> bool {
        self.learns
    }

    /// The spec as written.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The engine it names.
    #[must_use]
    pub fn engine(&self) -> &'static EngineInfo {
        self.engine
    }
}

/// Who wrote a spec: a person (a command line, a menu) may name any
/// engine; a file may not name programs or files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Person,
    File,
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse(text)
    }
}

impl fmt::Debug for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("AgentSpec").field(&self.text).finish()
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Position;
    use play::Limits;

    fn moves_of(spec: &AgentSpec, seed: u64) -> Vec<board::Cell> {
        let mut agent = spec.build(seed);
        let mut pos = Position::new(Rules::gomoku15());
        for _ in 0..10 {
            let cell = agent.select_move(&pos, &Limits::none()).unwrap();
            pos.play(cell).unwrap();
        }
        pos.moves().to_vec()
    }

    #[test]
    fn random_specs() {
        let plain: AgentSpec = "random".parse().unwrap();
        let seeded: AgentSpec = " Random : seed = 7 ".parse().unwrap();
        assert_eq!(plain.engine().name, "random");
        assert_eq!(seeded.text(), "Random : seed = 7");
        assert_eq!(moves_of(&seeded, 3), moves_of(&seeded, 3));
        assert_ne!(moves_of(&seeded, 3), moves_of(&seeded, 4));
        assert_ne!(moves_of(&seeded, 3), moves_of(&plain, 3));
    }

    #[test]
    fn pattern_specs() {
        for text in ["pattern", "pattern:family=ternary,seed=3"] {
            let spec: AgentSpec = text.parse().unwrap();
            assert_eq!(moves_of(&spec, 5), moves_of(&spec, 5));
        }
        let path = std::env::temp_dir().join(format!("roster-weights-{}.json", std::process::id()));
        std::fs::write(&path, serde_json::to_string(&vec![3; 109]).unwrap()).unwrap();
        let spec: AgentSpec = format!("pattern:weights={}", path.display()).parse().unwrap();
        assert_eq!(moves_of(&spec, 1).len(), 10);
        assert!(spec.check_rules(&Rules::gomoku15()).is_ok());
        let error = spec.check_rules(&Rules::tic_tac_toe()).unwrap_err().to_string();
        assert!(error.ends_with("cannot play 3,3,3: the weights are for k = 5, not k = 3"), "{error}");
        let plain: AgentSpec = "pattern".parse().unwrap();
        assert!(plain.check_rules(&Rules::tic_tac_toe()).is_ok());
        let one = Rules::new(1, 1, 1, board::RuleSet::Freestyle).unwrap();
        let error = plain.check_rules(&one).unwrap_err().to_string();
        assert_eq!(error, "pattern cannot play 1,1,1: pattern evaluation needs k from 2 to 8, got k = 1");
        std::fs::write(&path, "[1, 2]").unwrap();
        let error =
            format!("pattern:weights={}", path.display()).parse::<AgentSpec>().unwrap_err().to_string();
        assert!(error.contains("this one has 2 values"), "{error}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn alphabeta_reads_weights_of_its_family_and_refuses_bad_ones() {
        let dir = std::env::temp_dir().join(format!("roster-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let search = |spec: &AgentSpec| {
            let mut agent = spec.build(0);
            let pos = Position::from_moves(Rules::gomoku15(), "h8 h9 i9").unwrap();
            agent.select_move(&pos, &Limits::depth(4)).unwrap();
            agent.analysis().unwrap().scores
        };
        let error = |text: String| text.parse::<AgentSpec>().unwrap_err().to_string();
        // The threat family's, with eval=threat.
        let path = dir.join("threat.json");
        let weights = pattern_eval::ThreatWeights::default();
        weights.save(&path).unwrap();
        let from_file: AgentSpec =
            format!("alphabeta:eval=threat,weights={}", path.display()).parse().unwrap();
        let built_in: AgentSpec = "alphabeta:eval=threat".parse().unwrap();
        assert_eq!(search(&from_file), search(&built_in));
        let mut bolder = weights.clone();
        bolder.own_patterns.iter_mut().for_each(|w| *w *= 3);
        bolder.save(&path).unwrap();
        assert_ne!(search(&from_file.text().parse().unwrap()), search(&built_in));
        // The code family's, with eval=auto (the default) or eval=codes.
        let codes = dir.join("codes.json");
        pattern_eval::CodeWeights::default().save(&codes).unwrap();
        let from_file: AgentSpec = format!("alphabeta:weights={}", codes.display()).parse().unwrap();
        assert_eq!(search(&from_file), search(&"alphabeta:eval=codes".parse().unwrap()));
        // Threat weights where code weights are read, and no weights for ternary.
        let message = error(format!("alphabeta:weights={}", path.display()));
        assert!(
            message.starts_with("option weights of alphabeta:") && message.contains("code-weights"),
            "{message}"
        );
        let message = error(format!("alphabeta:eval=ternary,weights={}", path.display()));
        assert!(message.contains("weights are for the code evaluation"), "{message}");
        std::fs::write(&path, weights.to_json().replace("threat", "classic")).unwrap();
        let message = error(format!("alphabeta:eval=threat,weights={}", path.display()));
        assert!(
            message.starts_with("option weights of alphabeta:") && message.contains("family"),
            "{message}"
        );
        // A move policy: the hand-set one searches as without one; another
        // changes the search; it goes with the code family and the network
        // (under eval=auto, the network's on 15 x 15: the evaluation kept).
        let policy = dir.join("policy.json");
        pattern_eval::MovePolicy::hand_set().save(&policy).unwrap();
        let with_policy: AgentSpec = format!("alphabeta:policy={}", policy.display()).parse().unwrap();
        assert_eq!(search(&with_policy), search(&"alphabeta".parse().unwrap()));
        let with_codes: AgentSpec =
            format!("alphabeta:eval=codes,policy={}", policy.display()).parse().unwrap();
        assert_eq!(search(&with_codes), search(&"alphabeta:eval=codes".parse().unwrap()));
        let mut other = pattern_eval::MovePolicy::hand_set();
        other.made.iter_mut().skip(1).for_each(|value| *value = 1);
        other.save(&policy).unwrap();
        assert_ne!(search(&with_policy.text().parse().unwrap()), search(&"alphabeta".parse().unwrap()));
        assert_ne!(
            search(&with_codes.text().parse().unwrap()),
            search(&"alphabeta:eval=codes".parse().unwrap())
        );
        let message = error(format!("alphabeta:eval=threat,policy={}", policy.display()));
        assert!(message.contains("a move policy goes with eval=auto, codes or net"), "{message}");
        let message = error(format!("alphabeta:policy={}", codes.display()));
        assert!(message.starts_with("option policy of alphabeta:"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn alphabeta_plays_the_network_from_its_file_and_refuses_a_damaged_one() {
        let dir = std::env::temp_dir().join(format!("roster-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::gomoku15();
        let search = |spec: &AgentSpec| {
            let mut agent = spec.build(0);
            let pos = Position::from_moves(rules, "h8 h9 i9").unwrap();
            agent.select_move(&pos, &Limits::depth(4)).unwrap();
            agent.analysis().unwrap().scores
        };
        let built_in: AgentSpec = "alphabeta:eval=net".parse().unwrap();
        assert_ne!(
            search(&built_in),
            search(&"alphabeta:eval=codes".parse().unwrap()),
            "the network is not the tables"
        );
        assert_eq!(search(&built_in), search(&"alphabeta".parse().unwrap()), "auto is the network here");
        let path = dir.join("net.bin");
        let weights = pattern_eval::NetWeights::default_for(&rules).unwrap();
        weights.save(&path).unwrap();
        let from_file: AgentSpec = format!("alphabeta:eval=net,weights={}", path.display()).parse().unwrap();
        assert_eq!(search(&from_file), search(&built_in));
        // Under eval=auto a network file is played as the network.
        let auto: AgentSpec = format!("alphabeta:weights={}", path.display()).parse().unwrap();
        assert_eq!(search(&auto), search(&built_in));
        let why = auto.check_rules(&Rules::tic_tac_toe()).unwrap_err().to_string();
        assert!(why.contains("k = 5"), "{why}");
        // Damaged, or code weights where a network is read: refused, saying why.
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let message =
            format!("alphabeta:eval=net,weights={}", path.display()).parse::<AgentSpec>().unwrap_err();
        assert!(message.to_string().contains("checksum"), "{message}");
        let codes = dir.join("codes.json");
        pattern_eval::CodeWeights::default().save(&codes).unwrap();
        let message =
            format!("alphabeta:eval=net,weights={}", codes.display()).parse::<AgentSpec>().unwrap_err();
        assert!(message.to_string().starts_with("option weights of alphabeta:"), "{message}");
        // Only k = 5 has a network.
        let why = built_in.check_rules(&Rules::tic_tac_toe()).unwrap_err().to_string();
        assert!(why.contains("k = 5"), "{why}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_network_is_lazy_by_default_where_that_was_measured() {
        let search = |spec: &str, rules: Rules| {
            let mut agent = spec.parse::<AgentSpec>().unwrap().build(0);
            let pos = Position::from_moves(rules, "h8 h9 i9 g7 j10").unwrap();
            agent.select_move(&pos, &Limits::depth(7)).unwrap();
            let analysis = agent.analysis().unwrap();
            (analysis.scores, analysis.nodes)
        };
        let free = Rules::gomoku15();
        assert_eq!(search("alphabeta", free), search("alphabeta:lazy=800", free));
        assert_ne!(search("alphabeta", free), search("alphabeta:lazy=0", free), "the margin acts");
        let renju = Rules::renju();
        assert_eq!(search("alphabeta", renju), search("alphabeta:lazy=800", renju));
        assert_ne!(search("alphabeta", renju), search("alphabeta:lazy=0", renju), "the margin acts in renju");
        // Where the network is not the default, the margin is 0.
        let exact = Rules::gomoku15().with_rule_set(board::RuleSet::Exact);
        assert_eq!(pattern_eval::default_lazy_margin(exact), 0);
        let error = "alphabeta:lazy=-1".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(error.contains("option lazy of alphabeta must be a whole number"), "{error}");
    }

    #[test]
    fn mcts_budgets_follow_the_spec() {
        // Under an hour's clock: iterations asked for are the budget, and
        // the classic keeps its 1,000 (a time budget is tested in mcts).
        let searched = |text: &str| {
            let mut agent = text.parse::<AgentSpec>().unwrap().build(0);
            let pos = Position::from_moves(Rules::gomoku15(), "h8 h9").unwrap();
            agent.select_move(&pos, &Limits::time(std::time::Duration::from_hours(1))).unwrap();
            agent.analysis().unwrap().nodes
        };
        assert_eq!(searched("mcts:iterations=500"), 500);
        assert_eq!(searched("uct"), 1_000);
        assert_eq!(searched("uct:iterations=700"), 700);
    }

    #[test]
    fn tree_specs() {
        let classic: AgentSpec = "tree:minimax=4".parse().unwrap();
        let agent = classic.build(0);
        assert_eq!(agent.name(), "tree:minimax=4");
        assert!(classic.check_rules(&Rules::tic_tac_toe()).is_ok());
        assert!(classic.check_rules(&Rules::gomoku15()).is_err());
        let error = "tree:minimax=9".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(error.contains("option minimax of tree must be a whole number from 1 to 8"), "{error}");
    }

    #[test]
    fn errors_list_what_is_valid() {
        let cases = [
            ("", "no engine given; valid engines: random, pattern, alphabeta"),
            ("randm", "unknown engine \"randm\"; valid engines: random, pattern, alphabeta"),
            ("random:depth=3", "random has no option \"depth\"; valid options: seed"),
            ("random:seed", "cannot read \"seed\""),
            ("random:seed=1,seed=2", "option seed of random is given twice"),
            ("random:seed=-1", "option seed of random must be a whole number from 0 to 2^64-1, got \"-1\""),
            ("pattern:family=binary", "option family of pattern must be classic or ternary, got \"binary\""),
            (
                "pattern:weights=/no/such/file.json",
                "option weights of pattern: cannot read /no/such/file.json",
            ),
            ("alphabeta:threats=maybe", "option threats of alphabeta must be true or false, got \"maybe\""),
            (
                "alphabeta:threads=0",
                "option threads of alphabeta must be a whole number from 1 to 64, got \"0\"",
            ),
            (
                "alphabeta:max_moves=0",
                "option max_moves of alphabeta must be a whole number from 1 to 225, got \"0\"",
            ),
            ("mcts:parallel=leaf", "option parallel of mcts must be root or shared, got \"leaf\""),
            ("uct:c=-1", "option c of uct must be zero or a positive number, got \"-1\""),
            ("mcts:tree_mb=0", "option tree_mb of mcts must be a whole number from 1 to 65536, got \"0\""),
            (
                "alphabeta:eval=fancy",
                "option eval of alphabeta must be auto, openlines, pattern, ternary, threat, codes or net",
            ),
        ];
        for (text, message) in cases {
            let err = text.parse::<AgentSpec>().unwrap_err().to_string();
            assert!(err.starts_with(message), "{text}: {err}");
        }
    }

    #[test]
    fn a_program_s_opened_database_is_its_searches_own() {
        let dir = std::env::temp_dir().join(format!("roster-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let shared =
            analysis_db::SharedDatabase::new(analysis_db::Database::open(&dir.join("study.db")).unwrap());
        let spec: AgentSpec = "alphabeta:depth=6,vct_nodes=0".parse().unwrap();
        let spec = spec.with_store(&shared, true).unwrap();
        // No path in the spec's text; a change of its text keeps the store.
        assert_eq!(spec.text(), "alphabeta:depth=6,vct_nodes=0");
        let spec = spec.with_threads(1).unwrap();
        assert_eq!(spec.database(), Some(&shared));
        let pos = Position::from_moves(board::Rules::gomoku15(), "h8 i9 h9").unwrap();
        let mut agent = spec.build(1);
        agent.new_game(pos.rules());
        agent.select_move(&pos, &Limits::none()).unwrap();
        assert!(shared.lock().len().unwrap() > 0, "the search wrote through the program's handle");
        // (Results are kept from depth 4.) Read only: nothing more is written.
        let before = shared.lock().len().unwrap();
        let reader = spec.with_store(&shared, false).unwrap();
        let mut agent = reader.build(2);
        let pos = Position::from_moves(board::Rules::gomoku15(), "h8 a1 h9 a2").unwrap();
        agent.new_game(pos.rules());
        agent.select_move(&pos, &Limits::none()).unwrap();
        assert_eq!(shared.lock().len().unwrap(), before);
        // An engine that reads no database is the same spec.
        let random: AgentSpec = "random".parse().unwrap();
        assert_eq!(random.with_store(&shared, true).unwrap().database(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_may_name_engines_but_not_programs_or_files() {
        for text in ["alphabeta:depth=3", "mcts:iterations=50", "random", "td:learn=true,games=0"] {
            assert!(AgentSpec::parse_from_file(text).is_ok(), "{text}");
        }
        let refused = |text: &str| AgentSpec::parse_from_file(text).unwrap_err().to_string();
        // Refused before it is built: nothing is started, read or written.
        let message = refused("external:path=/bin/touch,args=/tmp/x");
        assert!(
            message.starts_with("a file may not name external this way: it starts a program"),
            "{message}"
        );
        let missing = "/nonexistent/weights.json";
        assert!(refused(&format!("alphabeta:weights={missing}")).contains("its option weights names a file"));
        assert!(refused("matrix:learn=true,table=/tmp/x.table").contains("its option table names a file"));
        // Other errors are the usual ones.
        assert!(refused("alphabeta:depht=3").contains("has no option"));
        // A person may name them.
        assert!(AgentSpec::parse("external:path=/bin/touch").is_ok());
    }
}

#[cfg(test)]
mod memory_tests {
    use super::*;

    #[test]
    fn tables_and_trees_are_brought_within_the_memory_given() {
        let within = |text: &str, mib: u64| AgentSpec::parse(text).unwrap().within_memory(mib << 20).unwrap();
        // Half for the alpha-beta table, whether its size was asked or not.
        assert_eq!(within("alphabeta:tt_mb=256", 64).text(), "alphabeta:tt_mb=32");
        assert_eq!(within("alphabeta:threads=2,TT_MB=256", 64).text(), "alphabeta:threads=2,tt_mb=32");
        assert_eq!(within("alphabeta", 64).text(), "alphabeta:tt_mb=32");
        // Room enough: the spec stays as it is.
        assert_eq!(within("alphabeta", 1024).text(), "alphabeta");
        assert_eq!(within("alphabeta:tt_mb=8", 64).text(), "alphabeta:tt_mb=8");
        // Three eighths for the Monte-Carlo trees (a reuse briefly holds two).
        assert_eq!(within("mcts:ms=100", 64).text(), "mcts:ms=100,tree_mb=24");
        assert_eq!(within("uct", 16).text(), "uct:tree_mb=6");
        // Engines without either are unchanged; a tiny budget still leaves 1 MiB.
        assert_eq!(within("random", 1).text(), "random");
        assert_eq!(
            AgentSpec::parse("alphabeta").unwrap().within_memory(1000).unwrap().text(),
            "alphabeta:tt_mb=1"
        );
    }

    #[test]
    fn threads_are_set_where_the_engine_takes_them() {
        let table = |text: &str, bytes: u64| AgentSpec::parse(text).unwrap().with_table_bytes(bytes).unwrap();
        assert_eq!(table("alphabeta:tt_mb=16", 512 << 20).text(), "alphabeta:tt_mb=512");
        assert_eq!(table("alphabeta", 1 << 10).text(), "alphabeta:tt_mb=1");
        assert_eq!(table("mcts", 512 << 20).text(), "mcts");
        assert_eq!(AgentSpec::parse("alphabeta").unwrap().max_threads(), Some(64));
        let threads = |text: &str, n: usize| AgentSpec::parse(text).unwrap().with_threads(n).unwrap();
        assert_eq!(threads("alphabeta", 4).text(), "alphabeta:threads=4");
        assert_eq!(threads("alphabeta:threads=2,ms=100", 1).text(), "alphabeta:ms=100,threads=1");
        assert_eq!(threads("mcts", 2).text(), "mcts:threads=2");
        assert_eq!(threads("random", 8).text(), "random");
    }
}
