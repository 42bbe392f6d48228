//! Labels from the search's own cutoffs (`trainer cuts`): each gathered
//! position is searched by an `alphabeta` spec, and the nodes it cut
//! become labels whose move is the one that cut (see
//! `minimax_tree::Cut`). A move ordering fitted to them (`trainer policy
//! --labels`) learns what refutes a line in the search's own tree, where
//! the judge's labels teach what a strong player would play.

use anyhow::{Result, anyhow};
use board::Rules;
use play::Limits;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use roster::AgentSpec;

use super::{Candidate, Label, pack};

/// How the positions are searched and their cuts kept.
#[derive(Clone, Copy, Debug)]
pub struct CutSettings {
    /// Nodes a position is searched.
    pub nodes: u64,
    /// Cuts at nodes with fewer whole plies left are left out.
    pub min_plies: u32,
    /// At most this many cuts a position, drawn at random (the same for
    /// the same seed).
    pub per_position: usize,
    /// The seed of the draw.
    pub seed: u64,
}

/// What came of the searches.
#[derive(Debug, Default)]
pub struct Cuts {
    /// The labels, by position searched.
    pub labels: Vec<Label>,
    /// Cuts the searches made at the plies asked (before the draw and
    /// before repeated nodes were merged).
    pub cuts: u64,
    /// Of those, cuts by the first move tried.
    pub by_first: u64,
}

/// Searches each of `positions` (under `rules`) with `spec`, `threads` at
/// a time, and labels the cuts of each: its node's moves, the cutting
/// move, the source game's number and result. A node cut more than once
/// (by the iterations of the deepening) keeps its deepest cut; then at
/// most `per_position` cuts of a position are drawn.
///
/// # Errors
/// The spec is not an `alphabeta` one, or cannot search `rules`.
pub fn cuts_of(
    positions: &[Candidate],
    rules: Rules,
    spec: &AgentSpec,
    settings: CutSettings,
    threads: usize,
) -> Result<Cuts> {
    spec.alphabeta_search(rules).map_err(|err| anyhow!("{err}"))?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let per_position: Vec<Result<Cuts>> = pool.install(|| {
        positions
            .par_iter()
            .enumerate()
            .map(|(index, position)| cuts_at(position, index, rules, spec, settings))
            .collect()
    });
    let mut all = Cuts::default();
    for cuts in per_position {
        let cuts = cuts?;
        all.labels.extend(cuts.labels);
        all.cuts += cuts.cuts;
        all.by_first += cuts.by_first;
    }
    Ok(all)
}

/// The cuts of one position, the `index`th searched.
fn cuts_at(
    position: &Candidate,
    index: usize,
    rules: Rules,
    spec: &AgentSpec,
    settings: CutSettings,
) -> Result<Cuts> {
    let pos = super::position_of(&position.moves, rules)
        .map_err(|why| anyhow!("a position does not replay: {why}"))?;
    let mut search = spec.alphabeta_search(rules).map_err(|err| anyhow!("{err}"))?;
    search.record_cuts(settings.min_plies, usize::MAX);
    search.search(&pos, &Limits::nodes(settings.nodes));
    let cuts = search.take_cuts();
    let by_first = cuts.iter().filter(|cut| cut.tried_before == 0).count() as u64;
    let made = cuts.len() as u64;
    // The deepest cut of each node (the first recorded of equals), in a
    // fixed order before the draw.
    let mut kept = cuts;
    kept.sort_by(|a, b| a.moves.cmp(&b.moves).then(b.plies_left.cmp(&a.plies_left)));
    kept.dedup_by(|later, first| later.moves == first.moves);
    let mut draw = rand::rngs::SmallRng::seed_from_u64(
        settings.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    kept.shuffle(&mut draw);
    kept.truncate(settings.per_position);
    let labels = kept
        .into_iter()
        .map(|cut| Label {
            moves: cut.moves.iter().map(|&cell| pack(cell)).collect(),
            value: None,
            win_in: None,
            chance: 0.5,
            best: Some(pack(cut.cell)),
            result: position.result,
            game: position.game,
        })
        .collect();
    Ok(Cuts { labels, cuts: made, by_first })
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Position;

    #[test]
    fn each_label_is_a_node_below_its_position_with_the_move_that_cut_it() {
        let rules = Rules::gomoku15();
        let root = Position::from_moves(rules, "h8 i9 j8 g8 i7 h6 k9").unwrap();
        let position = Candidate {
            moves: root.moves().iter().map(|&cell| pack(cell)).collect(),
            key: 0,
            result: -1,
            game: 30,
        };
        let spec: AgentSpec = "alphabeta:eval=codes,tt_mb=1".parse().unwrap();
        let settings = CutSettings { nodes: 5_000, min_plies: 1, per_position: 40, seed: 3 };
        let cuts = cuts_of(std::slice::from_ref(&position), rules, &spec, settings, 1).unwrap();
        assert!(cuts.cuts >= cuts.labels.len() as u64 && cuts.by_first <= cuts.cuts);
        assert!(!cuts.labels.is_empty() && cuts.labels.len() <= 40);
        let mut nodes = std::collections::HashSet::new();
        for label in &cuts.labels {
            assert!(label.moves.starts_with(&position.moves) && label.moves.len() > position.moves.len());
            let node = label.position(rules).unwrap();
            assert!(node.is_legal(label.best_cell().unwrap()), "{label:?}");
            assert_eq!((label.game, label.result), (30, -1));
            assert!(nodes.insert(label.moves.clone()), "a node labelled twice");
        }
        // The same seed draws the same cuts.
        let again = cuts_of(std::slice::from_ref(&position), rules, &spec, settings, 1).unwrap();
        assert_eq!(again.labels, cuts.labels);
        let other = "minimax".parse::<AgentSpec>().unwrap();
        assert!(cuts_of(std::slice::from_ref(&position), rules, &other, settings, 1).is_err());
    }
}
