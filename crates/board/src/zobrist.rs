//! Zobrist keys: one random 64-bit word per side and cell, built at compile time.

use crate::{Cell, Side};

/// splitmix64: a small, well-mixed generator usable in `const fn`.
const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

static KEYS: [[u64; Cell::SLOTS]; 2] = {
    let mut keys = [[0; Cell::SLOTS]; 2];
    let mut i = 0;
    while i < 2 * Cell::SLOTS {
        keys[i / Cell::SLOTS][i % Cell::SLOTS] =
            splitmix64(0x6d6e_6b5f_7a6f_6272 ^ (i as u64 * 0x1_0000_0001));
        i += 1;
    }
    keys
};

/// The key that `side`'s mark on `cell` contributes to a position's hash.
#[inline]
#[must_use]
pub fn key(side: Side, cell: Cell) -> u64 {
    KEYS[side.index()][cell.index()]
}

/// The key a pass (a search's null move) toggles in a position's hash,
/// so that the same marks with the other side to move hash apart.
#[inline]
#[must_use]
pub const fn pass_key() -> u64 {
    splitmix64(0x7061_7373_5f74_7572)
}

/// Mixes two words into one well-spread seed, for deriving per-game or
/// per-thread random seeds from a base seed.
#[inline]
#[must_use]
pub const fn mix_seed(a: u64, b: u64) -> u64 {
    splitmix64(splitmix64(a) ^ b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let all: HashSet<u64> = KEYS.iter().flatten().copied().collect();
        assert_eq!(all.len(), 2 * Cell::SLOTS);
        assert!(!all.contains(&pass_key()));
    }
}
