//! A node of the tree, and the choice of the child UCB1 prefers.

use board::{Cell, Outcome, Side};

/// One node: the move into it and its statistics. The mean and
/// 1/√visits are kept ready beside the cell and children, so that UCB1
/// reads each child once and finds there all it needs to go on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The mean score, halves / (2·visits), for the player who moved into
    /// this node; +∞ for a proven win and −∞ for a proven loss, so the
    /// solver's choices need no test.
    pub(super) mean: f32,
    /// 1/√visits: the exploration term of every child is then c·√(ln N)
    /// times it, with no division or root per child.
    pub(super) spread: f32,
    /// Children occupy `first..first + count` in the arena once allocated.
    pub(super) first: u32,
    pub(super) visits: u32,
    /// Half-points for the player who moved into this node: 2 a win, 1 a
    /// draw — exact.
    pub(super) halves: u32,
    /// The prior of the move (PUCT only).
    pub(super) prior: f32,
    pub(super) cell: Cell,
    pub(super) count: u16,
    /// Children tried so far (the first `tried` of them).
    pub(super) tried: u16,
    /// Proven result for the player who moved into this node: +1 won,
    /// −1 lost, 0 not proven (the solver only).
    pub(super) proven: i8,
    /// How the game stands after the move, learnt when it was first
    /// played: later descents play it without a win test.
    pub(super) ends: Ends,
}

/// Whether a node's move ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Ends {
    /// Not played yet, or the game goes on.
    No,
    /// The player who made the move won.
    Win,
    Draw,
}

impl Ends {
    pub(super) fn of(outcome: Option<Outcome>) -> Ends {
        match outcome {
            None => Ends::No,
            Some(Outcome::Win(_)) => Ends::Win,
            Some(Outcome::Draw) => Ends::Draw,
        }
    }

    /// The outcome, for the move of `mover`.
    #[inline]
    pub(super) fn outcome(self, mover: Side) -> Option<Outcome> {
        match self {
            Ends::No => None,
            Ends::Win => Some(Outcome::Win(mover)),
            Ends::Draw => Some(Outcome::Draw),
        }
    }
}

// Two nodes to a cache line.
const _: () = assert!(size_of::<Node>() == NODE_BYTES);

/// The memory a node of the tree takes, in bytes: a tree of `node_limit`
/// nodes takes that many times this.
pub const NODE_BYTES: usize = 32;

impl Node {
    pub(super) fn new(cell: Cell, prior: f32) -> Node {
        Node {
            mean: 0.0,
            spread: 0.0,
            first: 0,
            visits: 0,
            halves: 0,
            prior,
            cell,
            count: 0,
            tried: 0,
            proven: 0,
            ends: Ends::No,
        }
    }

    /// Sets the mean and spread from the visits, halves and proof, in
    /// f32: all selection needs, and its division and root are faster.
    #[inline]
    pub(super) fn refresh(&mut self) {
        (self.mean, self.spread) = match self.proven {
            1 => (f32::INFINITY, 0.0),
            -1 => (f32::NEG_INFINITY, 0.0),
            _ => {
                let visits = self.visits as f32;
                (self.halves as f32 / (2.0 * visits), visits.sqrt().recip())
            }
        };
    }

    /// The exact mean score.
    pub(super) fn score(&self) -> f64 {
        f64::from(self.halves) / (2.0 * f64::from(self.visits.max(1)))
    }

    /// What the move is worth to the player who made it: 1 or 0 once
    /// proven, else the mean score.
    pub(super) fn value(&self) -> f64 {
        match self.proven {
            1 => 1.0,
            -1 => 0.0,
            _ => self.score(),
        }
    }
}

/// The index among `children` of the highest UCB1 value `mean +
/// explore·spread`, the first of equals. A proven win is +∞ and always
/// taken; a proven loss −∞, and taken (the first) only if all are.
///
/// Two running maxima, over the even and the odd children, each compare
/// waiting on half as many before it as one maximum would; merged, they
/// pick exactly the child one pass would (see the test against it).
#[inline]
pub(super) fn best_ucb(children: &[Node], explore: f64) -> usize {
    let value = |child: &Node| f64::from(child.mean) + explore * f64::from(child.spread);
    let (mut even, mut odd) = ((f64::NEG_INFINITY, usize::MAX), (f64::NEG_INFINITY, usize::MAX));
    let mut pairs = children.chunks_exact(2);
    for (i, pair) in pairs.by_ref().enumerate() {
        let (a, b) = (value(&pair[0]), value(&pair[1]));
        if a > even.0 {
            even = (a, 2 * i);
        }
        if b > odd.0 {
            odd = (b, 2 * i + 1);
        }
    }
    if let [last] = pairs.remainder() {
        let a = value(last);
        if a > even.0 {
            even = (a, children.len() - 1);
        }
    }
    // Neither above the other: equal (values are never NaN), the first wins.
    let odd_first = odd.0 > even.0 || (odd.0 >= even.0 && odd.1 < even.1);
    let best = if odd_first { odd.1 } else { even.1 };
    // Every value −∞: the first child.
    if best == usize::MAX { 0 } else { best }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain pass: the first child of the highest value.
    fn one_pass(children: &[Node], explore: f64) -> usize {
        let mut best = (f64::NEG_INFINITY, 0);
        for (index, child) in children.iter().enumerate() {
            let value = f64::from(child.mean) + explore * f64::from(child.spread);
            if value > best.0 {
                best = (value, index);
            }
        }
        best.1
    }

    /// A child with these statistics (few distinct values, so ties are common).
    fn child((halves, visits, proven): (u32, u32, i8)) -> Node {
        let mut node = Node::new(Cell::new(0, 0), 1.0);
        node.visits = visits;
        node.halves = halves.min(2 * visits);
        node.proven = proven;
        node.refresh();
        node
    }

    proptest! {
        #[test]
        fn two_maxima_pick_the_child_one_pass_picks(
            stats in prop::collection::vec((0u32..6, 1u32..4, prop::sample::select(vec![0i8, 0, 0, 1, -1])), 1..40),
            explore in prop::sample::select(vec![0.0, 0.5, std::f64::consts::SQRT_2, 3.0]),
        ) {
            let children: Vec<Node> = stats.into_iter().map(child).collect();
            prop_assert_eq!(best_ucb(&children, explore), one_pass(&children, explore));
        }
    }

    #[test]
    fn all_proven_lost_takes_the_first() {
        let children: Vec<Node> = (0..5).map(|_| child((0, 1, -1))).collect();
        assert_eq!(best_ucb(&children, 1.0), 0);
    }
}
