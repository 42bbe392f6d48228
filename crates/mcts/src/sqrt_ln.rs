//! √(ln n) for UCB1's exploration term, without a call to `logf`.
//!
//! Every step of a descent needs √(ln N) of the node it chooses from, and
//! calling `logf` for it took a sixth of a 3×3 iteration. Small counts come
//! from a table of exact values; larger ones split n into 2^e · m and take
//! ln m from a table of 2,048 points, corrected to first order — within
//! 2·10⁻⁷ of ln m, below f32's own rounding of ln n.

/// Counts below this come exactly from the table.
const EXACT: usize = 1024;
/// Mantissa bits that pick the point of the ln m table.
const POINT_BITS: u32 = 11;

/// The tables: 4 KB exact, 16 KB for the mantissa.
#[derive(Clone, Debug)]
pub(crate) struct SqrtLn {
    exact: Box<[f32]>,
    /// (ln mᵢ, 1/mᵢ) at mᵢ = 1 + i/2048.
    points: Box<[(f32, f32)]>,
}

impl SqrtLn {
    pub(crate) fn new() -> SqrtLn {
        let points = 1u32 << POINT_BITS;
        SqrtLn {
            exact: (0..EXACT).map(|n| (n as f64).ln().max(0.0).sqrt() as f32).collect(),
            points: (0..points)
                .map(|i| {
                    let m = 1.0 + f64::from(i) / f64::from(points);
                    (m.ln() as f32, m.recip() as f32)
                })
                .collect(),
        }
    }

    /// √(ln n), n ≥ 1.
    #[inline]
    pub(crate) fn get(&self, n: u32) -> f32 {
        if let Some(&root) = self.exact.get(n as usize) {
            return root;
        }
        let bits = (n as f32).to_bits();
        let exponent = (bits >> 23) as i32 - 127;
        let point = (bits >> (23 - POINT_BITS)) as usize & ((1 << POINT_BITS) - 1);
        let (ln_point, recip_point) = self.points[point];
        // m − mᵢ: the mantissa bits below the point's.
        let rest = f32::from_bits(0x3f80_0000 | (bits & ((1 << (23 - POINT_BITS)) - 1))) - 1.0;
        let ln_m = ln_point + rest * recip_point;
        // Not `mul_add`: without FMA in the target it is a library call.
        (exponent as f32 * std::f32::consts::LN_2 + ln_m).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(n: u32) -> f64 {
        f64::from(n).ln().sqrt()
    }

    #[test]
    fn large_counts_are_within_f32_rounding() {
        let table = SqrtLn::new();
        // Every count up to 2^20, then a spread up to the largest.
        let counts =
            (EXACT as u32..1 << 20).chain((0..100_000u32).map(|i| (1 << 20) + i.wrapping_mul(42_937)));
        for n in counts.chain([u32::MAX - 1, u32::MAX]) {
            let error = (f64::from(table.get(n)) - reference(n)).abs();
            assert!(error <= 4e-7 * reference(n), "n = {n}: {} vs {}", table.get(n), reference(n));
        }
    }
}
