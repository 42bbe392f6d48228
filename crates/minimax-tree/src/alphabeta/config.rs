//! How the alpha-beta engine searches: every setting, with the defaults
//! that suit play.

use std::time::Duration;

use crate::candidates::Candidates;
use crate::threat_search::Deepening;

/// How the engine searches; [`AlphaBetaConfig::default`] suits play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// The deepest iteration, in plies (limits may stop it earlier).
    pub max_depth: u32,
    /// Memory for the transposition table, in bytes (0: none).
    pub tt_bytes: usize,
    /// Which moves to try; `None`: by board size (see [`Candidates::for_board`]).
    pub candidates: Option<Candidates>,
    /// Take a win at once, and answer a single threat only by blocking it
    /// (two threats lose), at every node with depth left.
    pub forced_moves: bool,
    /// Positions the threat search (VCF, k ≥ 4) may visit before the main
    /// search; 0 turns it off.
    pub vcf_nodes: u64,
    /// Key the table by the canonical form on boards up to this many cells,
    /// so symmetric positions share entries.
    pub symmetry_area: usize,
    /// Order moves by the evaluator's ranking at nodes with at least this
    /// depth left (deeper nodes are few and worth the cost).
    pub rank_depth: u32,
    /// Thinking time when the limits give none of time, nodes and depth.
    pub default_time: Duration,
    /// Never think longer than this per move, whatever the limits say.
    pub move_time: Option<Duration>,
    /// Never search more positions than this per move, whatever the
    /// limits say (with no time limit either, the node budget alone).
    pub move_nodes: Option<u64>,
    /// Search by threats where k is 4 to 8 (see [`board::threats`]):
    /// forced replies, threat-ordered and pruned move lists, fours at the
    /// leaves, late-move reductions, and a VCT at the root. Off, the
    /// search is plain alpha-beta over the candidate cells.
    pub threats: bool,
    /// Positions the VCT at the root may visit (threat search only).
    pub vct_nodes: u64,
    /// How the VCTs reach their depth: straight, or one attacking move
    /// deeper at a time.
    pub vct_deepening: Deepening,
    /// Fours the quiescence search may play in a row at the leaves.
    pub quiescence_fours: u32,
    /// Moves tried at a quiet node of the threat search, best first, while
    /// one of them holds (where all lose, the others are tried too).
    pub max_moves: usize,
    /// A forced block is searched one ply deeper than its node's depth, so
    /// that it costs nothing (else it only never drops into the leaves).
    pub extend_forced: bool,
    /// Added to a leaf's static score when the side to move can make a
    /// double three and the opponent has no four or open three to answer
    /// with: nearly always a win, but deeper than the leaf (0: off).
    /// Accepted together with [`AlphaBetaConfig::extend_forced`] by an SPRT
    /// (see the CHANGELOG).
    pub double_three_bonus: i32,
    /// Move-count pruning: at a quiet node off the principal line with at
    /// most this many plies left, only the first few moves (3 + depth^1.32)
    /// are tried once one of them does not lose (0: off).
    pub late_move_pruning: u32,
    /// The moves move-count pruning keeps, in percent of 3 + depth^1.32
    /// (at least two).
    pub late_move_percent: u32,
    /// From this move on (counted from 0; 0: never), a move that makes or
    /// blocks a three or more is searched a ply shallower first at a node
    /// of the threat search with 4 or more plies left, as quiet moves are.
    pub reduce_noisy: usize,
    /// Internal iterative reduction: a node of the threat search with at
    /// least this many plies left and no move in the table is searched a
    /// ply shallower (0: off).
    pub iir_depth: u32,
    /// Singular extension from this many plies left (0: off): the table's
    /// move is searched a ply deeper (two off the principal line when the
    /// others fall far short) when no other move comes within
    /// [`AlphaBetaConfig::singular_margin`] per ply of its score; when one
    /// does and the bar is at or above beta, the node is cut (multi-cut);
    /// when only the table's score is, the move goes 1.5 plies shallower.
    pub singular_depth: u32,
    /// The margin of the singular extension, per ply of depth.
    pub singular_margin: i32,
    /// Pruning by move score: at a node off the principal line with at
    /// most this many plies left, quiet moves (that make or block no
    /// three) are not tried once a move holds (0: off).
    pub quiet_pruning: u32,
    /// History-adjusted reductions from this many plies left (0: off): a
    /// late quiet move that has never cut a node off this game is
    /// searched a ply shallower still.
    pub history_reductions: u32,
    /// How the history of cutoffs, which breaks ties of move scores, is
    /// kept (game-long unless set).
    pub history: History,
    /// On the principal line, the table's move is searched a ply deeper
    /// at every this many plies of the line (0: off): 1/N of a ply a ply.
    pub table_extension: u32,
    /// The moves move-count pruning keeps at a node that is not improving
    /// (its static value not above the one two plies up), in percent of
    /// what it keeps elsewhere (100: the same; the reference keeps 50).
    pub lmp_unimproving_percent: u32,
    /// Reverse futility up to this many plies left (0: off): a node off
    /// the principal line whose static value is above beta by
    /// [`AlphaBetaConfig::futility_margin`] a ply (of the depth below
    /// the child, one less when improving) returns it at once.
    pub futility_depth: u32,
    /// Reverse futility's margin a ply, in the evaluation's units.
    pub futility_margin: i32,
    /// Razoring (0: off): with less than 2.6 plies left, off the principal
    /// line, a static value below alpha by this percent of the
    /// reference's margin (scaled to our evaluation) is searched by fours
    /// only.
    pub razor_percent: u32,
    /// Fail-high reduction (0: off): at a cut node whose static value is
    /// above beta by this percent of the reference's margin (scaled),
    /// every move but a four is searched a ply shallower.
    pub fail_high_percent: u32,
    /// Late-move reductions of ln(depth) · ln(move number) plies times
    /// this percent, in fractions of a ply, for every move after the
    /// first (0: whole plies for late quiet moves, as before).
    pub log_reduction_percent: u32,
    /// Reductions by the move policy (0: by the move's index): where the
    /// evaluator's quiet move scores are a policy's logits, a late quiet
    /// move is searched a ply shallower still when its policy lies at
    /// least this many tenths of a logit below the node's best quiet
    /// move, instead of from the seventh move on.
    pub policy_reduction_tenths: u32,
    /// Pruning by the move policy (0: off): where move-count pruning acts
    /// and a move holds, a quiet move whose policy lies at least this many
    /// tenths of a logit a ply left below the node's best quiet move is
    /// not tried (with a network that has a policy).
    pub policy_pruning_tenths: u32,
    /// Null-move pruning from this many plies left (with
    /// [`AlphaBetaConfig::null_move_margin`] above 0): off the principal
    /// line, where the opponent has no four or open three to make, a
    /// static value far above beta is tested by passing.
    pub null_move_depth: u32,
    /// Null-move pruning's margin above beta from about 11 plies left, in
    /// the evaluation's units, larger nearer the leaves as the reference's
    /// (0: off).
    pub null_move_margin: i32,
    /// Threads searching at once (lazy SMP): the others search the same
    /// root at the same depths, each starting on another root move, and
    /// what they store in the shared table orders and cuts the main
    /// thread's search. 1: one thread, and a search that is the same for
    /// the same limits every time.
    pub threads: usize,
}

impl Default for AlphaBetaConfig {
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig {
            max_depth: 64,
            tt_bytes: 64 << 20,
            candidates: None,
            forced_moves: true,
            vcf_nodes: 50_000,
            symmetry_area: 36,
            rank_depth: 3,
            default_time: Duration::from_secs(1),
            move_time: None,
            move_nodes: None,
            threats: true,
            vct_nodes: 100_000,
            vct_deepening: Deepening::Straight,
            quiescence_fours: 4,
            max_moves: 12,
            double_three_bonus: 2_000,
            extend_forced: true,
            late_move_pruning: 5,
            late_move_percent: 100,
            reduce_noisy: 0,
            iir_depth: 0,
            singular_depth: 7,
            singular_margin: 8,
            quiet_pruning: 0,
            history_reductions: 0,
            history: History::GameLong,
            table_extension: 0,
            lmp_unimproving_percent: 50,
            futility_depth: 8,
            futility_margin: 540,
            razor_percent: 0,
            fail_high_percent: 100,
            log_reduction_percent: 0,
            policy_reduction_tenths: 0,
            policy_pruning_tenths: 0,
            null_move_depth: 6,
            null_move_margin: 0,
            threads: 1,
        }
    }
}

/// How the search keeps its history of cutoffs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// One sum of depth² per cell, for both sides, over the whole game.
    GameLong,
    /// Per side and cell, pulled back toward zero as it grows, with the
    /// quiet moves tried before a cutoff losing what the cutting move
    /// gains.
    BySide,
    /// Kept by side, and breaking ties also in which moves make the
    /// threat search's cut of [`AlphaBetaConfig::max_moves`].
    BySideInCut,
}

impl History {
    /// The words that name the ways, as options take them.
    pub const NAMES: &'static [&'static str] = &["game", "side", "side_cut"];
}

impl std::fmt::Display for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let index = match self {
            History::GameLong => 0,
            History::BySide => 1,
            History::BySideInCut => 2,
        };
        f.write_str(History::NAMES[index])
    }
}

impl std::str::FromStr for History {
    type Err = String;

    fn from_str(text: &str) -> Result<History, String> {
        match text.to_ascii_lowercase().as_str() {
            "game" => Ok(History::GameLong),
            "side" => Ok(History::BySide),
            "side_cut" => Ok(History::BySideInCut),
            _ => Err(format!("unknown history {text:?}: expected one of {}", History::NAMES.join(", "))),
        }
    }
}
