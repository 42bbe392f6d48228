//! The game's file (`S`, `L`, `--load`) and the remembered settings.

use std::path::PathBuf;

use super::{App, FileClaim, Player, Setup};
use crate::config::Config;
use crate::record;

impl App {
    /// The file `S` and `L` use.
    #[must_use]
    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    /// Makes `S` and `L` use `path`.
    pub fn set_file(&mut self, path: PathBuf) {
        self.file = path;
    }

    /// Where remembered settings live (`None`: nothing is remembered).
    pub fn set_config_file(&mut self, path: Option<PathBuf>) {
        self.config_file = path;
    }

    /// The game came from `path`: `S` saves back to it without asking.
    pub fn loaded_from(&mut self, path: PathBuf) {
        self.message = format!("loaded {} — {}", path.display(), self.message);
        self.file = path;
        self.claim = FileClaim::Owned;
    }

    /// A new game whose file `path` does not exist yet: `S` saves it there.
    pub fn start_file(&mut self, path: PathBuf) {
        self.message = format!("{} — {} is a new file: S saves the game there", self.message, path.display());
        self.file = path;
        self.claim = FileClaim::Owned;
    }

    /// Saves the game to the current file (SGF if it ends in `.sgf`).
    /// A file this session did not write or read is overwritten only when
    /// `S` is pressed a second time in a row.
    pub fn save(&mut self) {
        if self.claim == FileClaim::Asked {
            self.claim = FileClaim::Foreign;
        } else if self.file.exists() && self.claim == FileClaim::Foreign {
            self.claim = FileClaim::Asked;
            self.message = format!("{} exists: press S again to overwrite it", self.file.display());
            return;
        }
        // The whole game, also in review or after moves were taken back.
        let mut whole = self.pos.clone();
        for &cell in self.redo.iter().rev() {
            if whole.play(cell).is_err() {
                break;
            }
        }
        self.message = match record::save(
            &self.file,
            (&self.setup, (self.opening.as_ref(), self.under_way())),
            &whole,
            self.lost_on_time(),
            self.game_in_file,
        ) {
            Ok(saved) => {
                self.claim = FileClaim::Owned;
                self.dirty = false;
                if let record::Saved::Appended { game } | record::Saved::Replaced { game, .. } = saved {
                    self.game_in_file = Some(game);
                }
                format!("saved to {}{saved}", self.file.display())
            }
            Err(err) => format!("cannot save: {err:#}"),
        };
    }

    /// The opening under way, as a file keeps it.
    fn under_way(&self) -> Option<record::UnderWay> {
        self.swap.as_ref().map(|phase| record::UnderWay {
            steps: phase.rif.steps.clone(),
            pending: phase.rif.pending.clone(),
            putting_two: phase.putting_two,
        })
    }

    /// Loads the game from the current file.
    pub fn load(&mut self) {
        match record::load(&self.file, self.game_in_file.unwrap_or(1), self.setup.time) {
            Ok(loaded) => {
                self.start_loaded(loaded);
                self.claim = FileClaim::Owned;
                self.message = format!("loaded {} — {}", self.file.display(), self.message);
            }
            Err(err) => self.message = format!("cannot load {}: {err:#}", self.file.display()),
        }
    }

    /// The remembered settings (the defaults where none can be read).
    #[must_use]
    pub fn config(&self) -> Config {
        self.config_file.as_deref().and_then(|path| Config::load(path).ok()).unwrap_or_default()
    }

    /// Remembers the external brain of `setup`, if it has one.
    pub(super) fn remember_brain(&mut self, setup: &Setup) {
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
}
