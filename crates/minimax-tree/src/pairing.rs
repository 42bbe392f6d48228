//! Pairing strategies: if every segment a side could still complete can
//! be given two empty cells of its own, the other side draws at least by
//! answering a move in a pair with its partner — so that side cannot win.

/// Whether every segment (a set of empty dense cells) can be given two
/// cells of its own, no cell serving two segments.
pub(crate) fn has_pairing(segments: &[u64]) -> bool {
    let free: u64 = segments.iter().fold(0, |all, cells| all | cells);
    if 2 * segments.len() > free.count_ones() as usize {
        return false;
    }
    // Bipartite matching: two slots per segment against the cells.
    let mut owner = [u16::MAX; 64];
    for slot in 0..2 * segments.len() {
        let mut seen = 0u64;
        if !augment(slot, segments, &mut owner, &mut seen) {
            return false;
        }
    }
    true
}

/// Kuhn's augmenting path from `slot`.
fn augment(slot: usize, segments: &[u64], owner: &mut [u16; 64], seen: &mut u64) -> bool {
    let mut cells = segments[slot / 2] & !*seen;
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        *seen |= 1 << cell;
        if owner[cell] == u16::MAX || augment(usize::from(owner[cell]), segments, owner, seen) {
            owner[cell] = slot as u16;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_when_cells_suffice() {
        assert!(has_pairing(&[]));
        assert!(has_pairing(&[0b0011, 0b1100]));
        assert!(has_pairing(&[0b0111, 0b1110]));
        assert!(!has_pairing(&[0b0011, 0b0110]));
        assert!(!has_pairing(&[0b0001]));
        // Three segments over five cells: 6 slots > 5 cells.
        assert!(!has_pairing(&[0b00111, 0b01110, 0b11100]));
        assert!(has_pairing(&[0b00_0111, 0b01_1100, 0b11_0001]));
    }
}
