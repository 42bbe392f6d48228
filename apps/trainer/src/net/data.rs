//! The network's samples: labelled positions as the rows the network
//! reads, with what the fit aims at.

use board::Rules;
use board::threats::{CellClass, Threats};
use rayon::prelude::*;

use crate::label::Label;
use crate::texel::VALIDATION_EVERY;

/// A position as the network reads it.
#[derive(Debug)]
pub struct Sample {
    /// By empty cell: by viewer (X, O), the rows of its four directions.
    pub rows: Vec<[[u16; 4]; 2]>,
    /// The side to move: 0 X, 1 O.
    pub mover: u8,
    /// The judge's chance for the mover.
    pub chance: f32,
    /// The game's result for the mover: 1, ½ or 0.
    pub result: f32,
    /// The judge's move: its index among the empty cells (`rows`' order).
    pub best: Option<u32>,
}

impl Sample {
    /// What the fit aims at: `blend` of the judge's chance, the rest the result.
    #[must_use]
    pub fn target(&self, blend: f32) -> f32 {
        blend * self.chance + (1.0 - blend) * self.result
    }
}

/// The labelled positions split for a fit: a tenth of the games held out.
#[derive(Debug)]
pub struct NetData {
    /// To fit.
    pub train: Vec<Sample>,
    /// Held out, with the labels they came from (for measuring the
    /// rounded network and the code tables on the same positions).
    pub validation: Vec<(Sample, Label)>,
    /// Positions left out: not quiet (a five to make), or not replayable.
    pub skipped: usize,
    /// Their rules.
    pub rules: Rules,
}

impl NetData {
    /// The quiet positions of `labels` (no five to make for either side,
    /// as the table fit takes them), held out by game as it does.
    #[must_use]
    pub fn from_labels(labels: &[Label], rules: Rules) -> NetData {
        let samples: Vec<Option<(bool, Sample)>> = labels
            .par_iter()
            .map(|label| {
                let pos = label.position(rules).ok()?;
                let threats = Threats::new(&pos).ok()?;
                if board::Side::ALL.iter().any(|&side| threats.class_count(side, CellClass::Five) > 0) {
                    return None;
                }
                let rows = pattern_eval::net::empty_cell_rows(&pos).ok()?;
                let best = label.best_cell().and_then(|best| {
                    pos.empty_cells().iter().position(|cell| cell == best).map(|i| i as u32)
                });
                let sample = Sample {
                    rows,
                    mover: pos.side_to_move().index() as u8,
                    chance: label.chance,
                    result: label.result_for_mover() as f32,
                    best,
                };
                Some((label.game.is_multiple_of(VALIDATION_EVERY), sample))
            })
            .collect();
        let mut data = NetData { train: Vec::new(), validation: Vec::new(), skipped: 0, rules };
        for (sample, label) in samples.into_iter().zip(labels) {
            match sample {
                None => data.skipped += 1,
                Some((true, sample)) => data.validation.push((sample, label.clone())),
                Some((false, sample)) => data.train.push(sample),
            }
        }
        data
    }
}
