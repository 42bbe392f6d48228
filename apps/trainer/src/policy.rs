//! A move policy (`pattern_eval::MovePolicy`) fitted to the moves a strong
//! engine chose in self-play: at each free position (no five to make or
//! stop, no four or open three to answer) the candidates are the cells
//! the search would try (a pattern made or blocked, within two of a
//! stone), each scored `made[mover's shape] + taken[opponent's shape]`,
//! and the fit raises the softmax chance of the move that was played
//! (the mean log-loss over positions, by Adam from the hand-set
//! values). The scale of the softmax is fitted first, on the hand-set
//! values, and then kept, so the learned values stay in the search's
//! units.

use board::threats::Pattern;
use board::threats::Threats;
use board::{Position, Rules, Side};
use pattern_eval::{MovePolicy, PLAIN_SHAPES, plain_shape, plain_shape_patterns};
use rayon::prelude::*;

use crate::optimiser::{adam_step, best_scale};
use crate::selfplay::GameData;

/// Games whose index is a multiple of this are held out.
const VALIDATION_EVERY: u64 = 10;

/// Positions with their candidates: flat, for speed.
#[derive(Clone, Debug, Default)]
pub struct PolicyData {
    /// Per candidate: the mover's shape there and the opponent's.
    shapes: Vec<(u16, u16)>,
    /// Per position, where its candidates start in `shapes` (and one more
    /// entry, the end).
    starts: Vec<u32>,
    /// Per position, which of its candidates was played.
    chosen: Vec<u32>,
}

impl PolicyData {
    /// How many positions it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// The positions of `games` (played under `rules`): those held out,
    /// and the rest.
    #[must_use]
    pub fn from_games(games: &[GameData], rules: Rules) -> (PolicyData, PolicyData) {
        let per_game: Vec<(bool, PolicyData)> = games
            .par_iter()
            .map(|game| (game.index % VALIDATION_EVERY == 0, positions_of(game, rules)))
            .collect();
        let (mut train, mut validation) = (PolicyData::default(), PolicyData::default());
        for (held_out, data) in per_game {
            if held_out { validation.extend(&data) } else { train.extend(&data) }
        }
        (train, validation)
    }

    fn push(&mut self, candidates: &[(u16, u16)], chosen: usize) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.shapes.extend_from_slice(candidates);
        self.starts.push(self.shapes.len() as u32);
        self.chosen.push(chosen as u32);
    }

    fn extend(&mut self, other: &PolicyData) {
        for i in 0..other.len() {
            self.push(other.candidates(i), other.chosen[i] as usize);
        }
    }

    fn candidates(&self, i: usize) -> &[(u16, u16)] {
        &self.shapes[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The free positions of one game after its given moves, with their
/// candidates and the move played (where it was one of them).
fn positions_of(game: &GameData, rules: Rules) -> PolicyData {
    let mut data = PolicyData::default();
    let mut pos = Position::new(rules);
    let Ok(mut threats) = Threats::new(&pos) else { return data };
    let mut candidates = Vec::new();
    for (ply, cell) in game.cells().enumerate() {
        if ply >= usize::from(game.given)
            && let Some(chosen) = candidates_at(&pos, &threats, cell, &mut candidates)
        {
            data.push(&candidates, chosen);
        }
        if pos.play(cell).is_err() {
            break;
        }
        threats.update(&pos, cell);
    }
    data
}

impl PolicyData {
    /// The free positions of `labels` (labelled under `rules`), the
    /// judge's move as the one chosen: those held out (a tenth of the
    /// games, by game), and the rest.
    #[must_use]
    pub fn from_labels(labels: &[crate::label::Label], rules: Rules) -> (PolicyData, PolicyData) {
        /// A free labelled position: held out or not, its candidates,
        /// which is the judge's move.
        type Free = (bool, Vec<(u16, u16)>, usize);
        let per_label: Vec<Option<Free>> = labels
            .par_iter()
            .map(|label| {
                let pos = label.position(rules).ok()?;
                let threats = Threats::new(&pos).ok()?;
                let mut candidates = Vec::new();
                let chosen = candidates_at(&pos, &threats, label.best_cell()?, &mut candidates)?;
                Some((label.game.is_multiple_of(VALIDATION_EVERY), candidates, chosen))
            })
            .collect();
        let (mut train, mut validation) = (PolicyData::default(), PolicyData::default());
        for (held_out, candidates, chosen) in per_label.into_iter().flatten() {
            if held_out { validation.push(&candidates, chosen) } else { train.push(&candidates, chosen) }
        }
        (train, validation)
    }
}

/// At a free position of a game (not the first move), the cells the
/// search would try, as the mover's and the opponent's plain shapes
/// there, into `candidates`, and which of them is `chosen`; `None` where
/// the position is not free, `chosen` is not among them, or there is no
/// choice.
fn candidates_at(
    pos: &Position,
    threats: &Threats,
    chosen: board::Cell,
    candidates: &mut Vec<(u16, u16)>,
) -> Option<usize> {
    let me = pos.side_to_move();
    if pos.occupied().is_empty() || !free(threats, me) {
        return None;
    }
    candidates.clear();
    let mut found = None;
    for candidate in pos.cells_near_marks() {
        if threats.move_score(me, candidate) > 0 {
            if candidate == chosen {
                found = Some(candidates.len());
            }
            let shapes = (threats.code(me, candidate), threats.code(me.opponent(), candidate));
            candidates.push((plain_shape(shapes.0) as u16, plain_shape(shapes.1) as u16));
        }
    }
    found.filter(|_| candidates.len() > 1)
}

/// Whether the side to move `me` chooses freely: no five to make or to
/// stop, no four or open three of the opponent to answer.
fn free(threats: &Threats, me: Side) -> bool {
    let opponent = me.opponent();
    threats.five_cells(me).is_empty()
        && threats.five_cells(opponent).is_empty()
        && threats.four_cells(opponent).is_empty()
        && threats.open_four_cells(opponent).is_empty()
}

/// How well a policy predicts the moves: the mean log-loss and the share
/// of positions whose best-scored candidate was the move played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Mean −ln(chance of the move played).
    pub loss: f64,
    /// Share of positions where the move played scored highest.
    pub top1: f64,
}

/// The loss, accuracy and (if `gradient`) the gradients of `made` and
/// `taken` over `data` at softmax scale `scale`.
fn evaluate(
    data: &PolicyData,
    (made, taken): (&[f64], &[f64]),
    scale: f64,
    gradient: bool,
) -> (Fit, Vec<f64>, Vec<f64>) {
    const CHUNK: usize = 4096;
    let chunks: Vec<usize> = (0..data.len()).step_by(CHUNK).collect();
    let parts: Vec<(f64, u64, Vec<f64>, Vec<f64>)> = chunks
        .par_iter()
        .map(|&start| {
            let (mut loss, mut right) = (0.0, 0);
            let (mut grad_made, mut grad_taken) = if gradient {
                (vec![0.0; PLAIN_SHAPES], vec![0.0; PLAIN_SHAPES])
            } else {
                (Vec::new(), Vec::new())
            };
            let mut logits = Vec::new();
            for i in start..(start + CHUNK).min(data.len()) {
                let candidates = data.candidates(i);
                logits.clear();
                logits
                    .extend(candidates.iter().map(|&(a, b)| (made[a as usize] + taken[b as usize]) * scale));
                let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = logits.iter().map(|z| (z - top).exp()).sum();
                let chosen = data.chosen[i] as usize;
                loss += top + sum.ln() - logits[chosen];
                right += u64::from(logits[chosen] >= top);
                if gradient {
                    for (j, &(a, b)) in candidates.iter().enumerate() {
                        let chance = (logits[j] - top).exp() / sum;
                        let step = (chance - f64::from(u8::from(j == chosen))) * scale;
                        grad_made[a as usize] += step;
                        grad_taken[b as usize] += step;
                    }
                }
            }
            (loss, right, grad_made, grad_taken)
        })
        .collect();
    let n = data.len().max(1) as f64;
    let (mut loss, mut right) = (0.0, 0);
    let (mut grad_made, mut grad_taken) = (vec![0.0; PLAIN_SHAPES], vec![0.0; PLAIN_SHAPES]);
    for (part_loss, part_right, part_made, part_taken) in parts {
        loss += part_loss;
        right += part_right;
        for (total, part) in
            grad_made.iter_mut().zip(&part_made).chain(grad_taken.iter_mut().zip(&part_taken))
        {
            *total += part / n;
        }
    }
    (Fit { loss: loss / n, top1: right as f64 / n }, grad_made, grad_taken)
}

/// The softmax scale the hand-set values fit best on `data`.
fn fit_scale(data: &PolicyData, start: (&[f64], &[f64])) -> f64 {
    best_scale(|scale| evaluate(data, start, scale, false).0.loss, (2_f64.powi(-16), 2.0))
}

/// What a fit did: the scale, and the fit before and after on both parts.
#[derive(Clone, Copy, Debug)]
pub struct PolicyReport {
    /// The softmax scale (per unit of move score).
    pub scale: f64,
    /// Training positions: before and after.
    pub train: (Fit, Fit),
    /// Held-out positions: before and after.
    pub validation: (Fit, Fit),
}

/// Fits a policy to `train` from the hand-set one, `steps` full-batch
/// steps of Adam of `rate` units of move score, watching `validation`.
#[must_use]
pub fn fit(train: &PolicyData, validation: &PolicyData, steps: u32, rate: f64) -> (MovePolicy, PolicyReport) {
    let hand_set = MovePolicy::hand_set();
    let mut made: Vec<f64> = hand_set.made.iter().map(|&v| f64::from(v)).collect();
    let mut taken: Vec<f64> = hand_set.taken.iter().map(|&v| f64::from(v)).collect();
    let scale = fit_scale(train, (&made, &taken));
    let before = (
        evaluate(train, (&made, &taken), scale, false).0,
        evaluate(validation, (&made, &taken), scale, false).0,
    );
    let mut moments = vec![(0.0, 0.0); 2 * PLAIN_SHAPES];
    for step in 1..=steps {
        let (_, grad_made, grad_taken) = evaluate(train, (&made, &taken), scale, true);
        let params = made.iter_mut().chain(taken.iter_mut());
        let grads = grad_made.iter().chain(&grad_taken);
        for (index, ((param, &grad), moment)) in params.zip(grads).zip(&mut moments).enumerate() {
            // The empty shape stays 0: a move that makes or blocks nothing.
            if index % PLAIN_SHAPES == 0 {
                continue;
            }
            let (first, second) = moment;
            adam_step(param, grad, (first, second), u64::from(step), rate);
            *param = param.max(1.0);
        }
    }
    let round = |values: &[f64]| -> Vec<i32> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| if i == 0 { 0 } else { (v.round() as i32).clamp(1, pattern_eval::MAX_WEIGHT) })
            .collect()
    };
    let policy = MovePolicy { made: round(&made), taken: round(&taken) };
    let after = (measure(train, &policy, scale), measure(validation, &policy, scale));
    let report = PolicyReport { scale, train: (before.0, after.0), validation: (before.1, after.1) };
    (policy, report)
}

/// How well `policy` predicts the moves of `data` at softmax scale `scale`.
#[must_use]
pub fn measure(data: &PolicyData, policy: &MovePolicy, scale: f64) -> Fit {
    let as_real = |table: &[i32]| -> Vec<f64> { table.iter().map(|&v| f64::from(v)).collect() };
    evaluate(data, (&as_real(&policy.made), &as_real(&policy.taken)), scale, false).0
}

/// Whether plain shape `index` is made of twos alone (a two or an open two
/// on some line, nothing stronger on any).
fn of_twos_alone(index: usize) -> bool {
    matches!(plain_shape_patterns(index)[0], Pattern::Two | Pattern::OpenTwo)
}

/// The hand-set policy with the shapes of twos alone taken from `fitted`,
/// scaled back to the hand-set units: a fit sharpens its softmax by
/// raising every value (about 2.6 times on the search's cuts), and the
/// search weighs these scores against the hand-set threat shapes and
/// breaks their ties by history, so the fitted twos are multiplied by
/// the least-squares factor onto the hand-set twos, rounded, at least 1.
/// Every shape with a three or stronger keeps its hand-set value.
#[must_use]
pub fn twos_alone(fitted: &MovePolicy) -> MovePolicy {
    let mut policy = MovePolicy::hand_set();
    let twos: Vec<usize> = (1..PLAIN_SHAPES).filter(|&index| of_twos_alone(index)).collect();
    let pairs = || {
        twos.iter().flat_map(|&index| {
            [(fitted.made[index], policy.made[index]), (fitted.taken[index], policy.taken[index])]
        })
    };
    let across: f64 = pairs().map(|(fit, hand)| f64::from(fit) * f64::from(hand)).sum();
    let square: f64 = pairs().map(|(fit, _)| f64::from(fit) * f64::from(fit)).sum();
    let factor = if square > 0.0 { across / square } else { 1.0 };
    let scaled = |value: i32| ((f64::from(value) * factor).round() as i32).clamp(1, pattern_eval::MAX_WEIGHT);
    for &index in &twos {
        policy.made[index] = scaled(fitted.made[index]);
        policy.taken[index] = scaled(fitted.taken[index]);
    }
    policy
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Cell;

    fn game(moves: &str, given: u16) -> GameData {
        let rules = Rules::gomoku15();
        let pos = Position::from_moves(rules, moves).unwrap();
        GameData {
            index: 1,
            given,
            moves: pos
                .moves()
                .iter()
                .map(|cell: &Cell| u16::from(cell.x()) << 8 | u16::from(cell.y()))
                .collect(),
            scores: Vec::new(),
            result: 0,
        }
    }

    #[test]
    fn a_fit_learns_the_moves_that_were_played() {
        // Games where the mover always extends its own two into a three
        // beside the opponent's stones: the fit should come to predict it
        // better than the hand-set scores.
        let games: Vec<GameData> =
            (0..30).map(|i| GameData { index: i * 10 + 1, ..game("h8 a1 i8 a3 j8 a5 k8 o1", 1) }).collect();
        let (train, validation) = PolicyData::from_games(&games, Rules::gomoku15());
        assert!(!train.is_empty() && validation.is_empty(), "{} {}", train.len(), validation.len());
        let (policy, report) = fit(&train, &train, 60, 2.0);
        policy.check().unwrap();
        assert!(report.train.1.loss < report.train.0.loss, "{report:?}");
        // The hand-set policy, scored by itself, is where a fit starts.
        assert_eq!(fit(&train, &validation, 0, 1.0).0, MovePolicy::hand_set());
    }

    #[test]
    fn twos_alone_takes_the_fitted_twos_in_hand_set_units_and_nothing_else() {
        let hand = MovePolicy::hand_set();
        assert_eq!(twos_alone(&hand), hand);
        // A fit that tripled every value, then lifted the open two and a
        // three: the twos come back in hand-set units, the three does not
        // move.
        let mut fitted = MovePolicy {
            made: hand.made.iter().map(|v| v * 3).collect(),
            taken: hand.taken.iter().map(|v| v * 3).collect(),
        };
        let index =
            |name: &str| (0..PLAIN_SHAPES).find(|&i| pattern_eval::plain_shape_name(i) == name).unwrap();
        let (open_two, three) = (index("open two"), index("three"));
        fitted.made[open_two] += 300;
        fitted.made[three] += 300;
        let policy = twos_alone(&fitted);
        policy.check().unwrap();
        assert!(
            policy.made[open_two] > hand.made[open_two],
            "{} {}",
            policy.made[open_two],
            hand.made[open_two]
        );
        assert_eq!(policy.made[three], hand.made[three]);
        assert_eq!(policy.made[0], 0);
        let changed: Vec<String> = (0..PLAIN_SHAPES)
            .filter(|&i| policy.made[i] != hand.made[i] || policy.taken[i] != hand.taken[i])
            .map(pattern_eval::plain_shape_name)
            .collect();
        assert!(
            changed.iter().all(|name| name.split('+').all(|part| part == "two" || part == "open two")),
            "{changed:?}"
        );
        assert!(!changed.is_empty());
        assert!(
            of_twos_alone(index("open two+two"))
                && !of_twos_alone(index("open three+two"))
                && !of_twos_alone(0)
        );
    }
}
