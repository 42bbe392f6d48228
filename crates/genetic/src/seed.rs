//! Seeds drawn from a run's seed: each stream (the first population,
//! each generation's games, its breeding) gets its own, so a run repeats
//! exactly from its seed and a resumed run goes on as the whole one would.

/// splitmix64's output function: a bijection that mixes every bit.
const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of stream `b` of a run seeded with `a` (the same mix as the
/// one `board` seeds games with, so runs repeat as they did when the
/// crate borrowed it).
#[inline]
#[must_use]
pub const fn mix_seed(a: u64, b: u64) -> u64 {
    splitmix64(splitmix64(a) ^ b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_and_repeat() {
        assert_eq!(mix_seed(7, 1), mix_seed(7, 1));
        assert_ne!(mix_seed(7, 1), mix_seed(7, 2));
        assert_ne!(mix_seed(7, 1), mix_seed(8, 1));
    }
}
