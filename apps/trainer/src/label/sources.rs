//! The positions to label, read from games: `bench match` and tournament
//! records (JSON lines), the trainer's self-play data files, and SGF
//! collections — told apart by their first bytes. One position of each
//! symmetry class is kept; decided positions are left out.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use arena::Shard;
use board::threats::{CellClass, Threats};
use board::{Cell, Outcome, Position, Rules, Side};

use super::pack;

/// A position to label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The moves from the empty board, packed.
    pub moves: Vec<u16>,
    /// Its symmetry class's hash (`Position::canonical`).
    pub key: u64,
    /// The game's result: 1 X won, −1 O won, 0 a draw.
    pub result: i8,
    /// The game's number (see [`super::Label::game`]).
    pub game: u64,
}

/// What the sources held.
#[derive(Debug, Default)]
pub struct Gathered {
    /// The rules every game was played under.
    pub rules: Option<Rules>,
    /// The positions to label, in the order read.
    pub candidates: Vec<Candidate>,
    /// Games read.
    pub games: u64,
    /// Games left out: forfeits, and SGF games with no result.
    pub games_left_out: u64,
    /// Positions left out as decided.
    pub decided: u64,
    /// Positions left out as another of the same symmetry class.
    pub repeated: u64,
    /// Positions left out as another shard's.
    pub other_shards: u64,
}

/// One game as every source gives it.
struct SourceGame {
    rules: Rules,
    moves: Vec<Cell>,
    /// X's result.
    result: i8,
    /// Positions from this ply on are decided (a proven result in the record).
    decided_from: usize,
}

/// The positions of every game of `paths`, from ply `from_ply` on, that
/// belong to `shard` (by symmetry class) and are not among `known`
/// (classes labelled already).
///
/// # Errors
/// A file that cannot be read, or games of more than one rule set.
pub fn gather<S: std::hash::BuildHasher>(
    paths: &[PathBuf],
    from_ply: usize,
    shard: Shard,
    known: &HashSet<u64, S>,
) -> Result<Gathered> {
    let mut gathered = Gathered::default();
    let mut seen = HashSet::new();
    for path in paths {
        let name = path.display().to_string();
        for (index, game) in read_games(path)?.into_iter().enumerate() {
            let Some(game) = game else {
                gathered.games_left_out += 1;
                continue;
            };
            if let Some(rules) = gathered.rules.filter(|&rules| rules != game.rules) {
                bail!(
                    "{name} holds games of {}, the files before it of {rules}: label one rule set at a time",
                    game.rules
                );
            }
            gathered.rules = Some(game.rules);
            gathered.games += 1;
            let number = game_number(&name, index as u64);
            if let Err(why) = positions_of(&game, number, from_ply, shard, known, &mut seen, &mut gathered) {
                bail!("{name}: game {} is corrupt: {why}", index + 1);
            }
        }
    }
    Ok(gathered)
}

/// The number of game `index` of the source file named `name`: a number
/// of the file's name (not its folder) plus the index, so that consecutive
/// games have consecutive numbers and every tenth game of a file is held
/// out (`game % 10 == 0`).
#[must_use]
pub fn game_number(name: &str, index: u64) -> u64 {
    let file_name = Path::new(name).file_name().map_or(name.into(), |n| n.to_string_lossy());
    play::files::checksum(file_name.as_bytes()).wrapping_add(index)
}

/// Walks one game, keeping its positions as candidates.
fn positions_of<S: std::hash::BuildHasher>(
    game: &SourceGame,
    number: u64,
    from_ply: usize,
    shard: Shard,
    known: &HashSet<u64, S>,
    seen: &mut HashSet<u64>,
    gathered: &mut Gathered,
) -> Result<(), String> {
    let mut pos = Position::new(game.rules);
    let mut threats = Threats::new(&pos).ok();
    for (ply, &cell) in game.moves.iter().enumerate() {
        if ply >= from_ply {
            if ply >= game.decided_from || can_win_at_once(&pos, threats.as_ref()) {
                gathered.decided += 1;
            } else {
                let (key, _) = pos.canonical();
                if key % shard.count != shard.index {
                    gathered.other_shards += 1;
                } else if known.contains(&key) || !seen.insert(key) {
                    gathered.repeated += 1;
                } else {
                    gathered.candidates.push(Candidate {
                        moves: game.moves[..ply].iter().map(|&c| pack(c)).collect(),
                        key,
                        result: game.result,
                        game: number,
                    });
                }
            }
        }
        pos.play(cell).map_err(|err| format!("move {} {}: {err}", ply + 1, cell.name(&game.rules)))?;
        if let Some(threats) = threats.as_mut() {
            threats.update(&pos, cell);
        }
    }
    Ok(())
}

/// Whether the side to move has a five to make.
fn can_win_at_once(pos: &Position, threats: Option<&Threats>) -> bool {
    let mover = pos.side_to_move();
    match threats {
        Some(threats) => threats.class_count(mover, CellClass::Five) > 0,
        None => pos.legal_cells().into_iter().any(|cell| pos.wins_at(cell, mover)),
    }
}

/// X's result of a game that ended `outcome`.
fn result_of(outcome: Outcome) -> i8 {
    match outcome {
        Outcome::Win(Side::X) => 1,
        Outcome::Win(Side::O) => -1,
        Outcome::Draw => 0,
    }
}

/// The games of one file, `None` for each game left out.
fn read_games(path: &Path) -> Result<Vec<Option<SourceGame>>> {
    let mut head = Vec::new();
    {
        use std::io::Read;
        std::fs::File::open(path)
            .and_then(|file| file.take(64).read_to_end(&mut head))
            .with_context(|| format!("cannot read {}", path.display()))?;
    }
    if head.starts_with(crate::selfplay::MAGIC) {
        return self_play_games(path);
    }
    if head.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'(') {
        return sgf_games(path);
    }
    record_games(path)
}

fn self_play_games(path: &Path) -> Result<Vec<Option<SourceGame>>> {
    let file = crate::selfplay::DataFile::read(path)?;
    let rules: Rules = file
        .settings
        .rules
        .parse()
        .map_err(|err| anyhow::anyhow!("{}: rules {}: {err}", path.display(), file.settings.rules))?;
    Ok(file
        .games
        .iter()
        .map(|game| {
            let moves: Vec<Cell> = game.cells().collect();
            Some(SourceGame { rules, decided_from: moves.len(), moves, result: game.result })
        })
        .collect())
}

fn record_games(path: &Path) -> Result<Vec<Option<SourceGame>>> {
    let lines = arena::read_records(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(lines
        .into_iter()
        .map(|line| {
            let record = line.record;
            if record.forfeit.is_some() {
                return None;
            }
            // From the first move whose search proved a result, the rest
            // of the game is decided.
            let proven =
                record.moves.iter().position(|played| played.thought.is_some_and(|t| t.win_in.is_some()));
            let moves: Vec<Cell> = record.cells().collect();
            let decided_from = proven.map_or(moves.len(), |i| record.opening.len() + i);
            Some(SourceGame { rules: record.rules, moves, result: result_of(record.outcome), decided_from })
        })
        .collect())
}

fn sgf_games(path: &Path) -> Result<Vec<Option<SourceGame>>> {
    let text =
        play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = play::sgf::parse(&text).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?;
    Ok(games
        .into_iter()
        .map(|game| {
            let moves: Vec<Cell> = game.moves.iter().map(|&(cell, _)| cell).collect();
            let result = sgf_result(game.result.as_deref()).or_else(|| {
                let end = game.position(None).ok()?;
                end.outcome().map(result_of)
            })?;
            Some(SourceGame { rules: game.rules, decided_from: moves.len(), moves, result })
        })
        .collect())
}

/// X's result as SGF's `RE` writes it (`B+`, `W+R`, `0`, `Draw`); `None`
/// if it says none.
fn sgf_result(text: Option<&str>) -> Option<i8> {
    let text = text?.trim();
    if text.starts_with("B+") {
        Some(1)
    } else if text.starts_with("W+") {
        Some(-1)
    } else if text == "0" || text.eq_ignore_ascii_case("draw") || text == "Jigo" {
        Some(0)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rules: Rules, moves: &[(u8, u8)], result: i8) -> SourceGame {
        let moves: Vec<Cell> = moves.iter().map(|&(x, y)| Cell::new(x, y)).collect();
        SourceGame { rules, decided_from: moves.len(), moves, result }
    }

    fn gather_one(game: &SourceGame, from_ply: usize, shard: Shard, known: &HashSet<u64>) -> Gathered {
        let mut gathered = Gathered::default();
        positions_of(game, 7, from_ply, shard, known, &mut HashSet::new(), &mut gathered).unwrap();
        gathered
    }

    #[test]
    fn mirror_images_are_labelled_once_and_a_five_to_make_is_decided() {
        let rules: Rules = "15,15,5".parse().unwrap();
        // X builds a four on row 7 while O answers far away: the position
        // with X to move and a five to make is decided; the position after
        // X's first move and its mirror image (the same class) count once.
        let moves = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7), (0, 6), (11, 7)];
        let gathered = gather_one(&game(rules, &moves, 1), 0, Shard::WHOLE, &HashSet::new());
        assert_eq!(gathered.decided, 1, "only X's move at ply 8 has a five to make");
        assert_eq!(gathered.candidates.len(), 8);
        let mirrored: Vec<(u8, u8)> = moves.iter().map(|&(x, y)| (14 - x, y)).collect();
        let mut seen = HashSet::new();
        let mut both = Gathered::default();
        for g in [game(rules, &moves, 1), game(rules, &mirrored, 1)] {
            positions_of(&g, 1, 0, Shard::WHOLE, &HashSet::new(), &mut seen, &mut both).unwrap();
        }
        assert_eq!(both.candidates.len(), 8);
        assert_eq!(both.repeated, 8);
    }

    #[test]
    fn shards_split_the_classes_and_known_ones_are_skipped() {
        let rules: Rules = "15,15,5".parse().unwrap();
        let moves = [(7, 7), (8, 8), (6, 8), (9, 6), (5, 9), (9, 9), (4, 4), (2, 2), (12, 3), (3, 12)];
        let g = game(rules, &moves, 0);
        let whole = gather_one(&g, 2, Shard::WHOLE, &HashSet::new());
        assert_eq!(whole.candidates.len(), 8, "plies 2 to 9");
        let parts: Vec<Gathered> =
            (0..3).map(|i| gather_one(&g, 2, Shard::new(i, 3).unwrap(), &HashSet::new())).collect();
        let mut keys: Vec<u64> = parts.iter().flat_map(|p| p.candidates.iter().map(|c| c.key)).collect();
        keys.sort_unstable();
        let mut all: Vec<u64> = whole.candidates.iter().map(|c| c.key).collect();
        all.sort_unstable();
        assert_eq!(keys, all);
        let known: HashSet<u64> = whole.candidates[..3].iter().map(|c| c.key).collect();
        let rest = gather_one(&g, 2, Shard::WHOLE, &known);
        assert_eq!(rest.candidates, whole.candidates[3..]);
    }

    #[test]
    fn a_proven_result_in_the_record_ends_what_is_labelled() {
        let rules: Rules = "15,15,5".parse().unwrap();
        let mut g = game(rules, &[(7, 7), (8, 8), (6, 8), (9, 6), (5, 9)], 1);
        g.decided_from = 3;
        let gathered = gather_one(&g, 0, Shard::WHOLE, &HashSet::new());
        assert_eq!((gathered.candidates.len(), gathered.decided), (3, 2));
    }

    #[test]
    fn sgf_results_read_as_x_sees_them() {
        assert_eq!(sgf_result(Some("B+")), Some(1));
        assert_eq!(sgf_result(Some("W+T")), Some(-1));
        assert_eq!(sgf_result(Some("0")), Some(0));
        assert_eq!(sgf_result(Some("?")), None);
        assert_eq!(sgf_result(None), None);
    }
}
