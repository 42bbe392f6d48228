//! What both fits (the Texel fit of weights and the fit of a move policy)
//! optimise with: Adam's step, and the search for the scale that turns
//! a value into a probability.

/// Adam's first-moment decay.
const BETA1: f64 = 0.9;
/// Adam's second-moment decay.
const BETA2: f64 = 0.999;

/// One parameter's Adam step (β₁ 0.9, β₂ 0.999): `moments` are its first
/// and second moment estimates, updated with `gradient`; `step` counts
/// from 1; `rate` is the step size in the parameter's units.
#[inline]
pub fn adam_step(
    param: &mut f64,
    gradient: f64,
    (first, second): (&mut f64, &mut f64),
    step: u64,
    rate: f64,
) {
    let t = i32::try_from(step).unwrap_or(i32::MAX);
    *first = BETA1 * *first + (1.0 - BETA1) * gradient;
    *second = BETA2 * *second + (1.0 - BETA2) * gradient * gradient;
    let m = *first / (1.0 - BETA1.powi(t));
    let v = *second / (1.0 - BETA2.powi(t));
    *param -= rate * m / (v.sqrt() + 1e-12);
}

/// The scale within `(low, high)` where `loss` is least: a golden-section
/// search over its logarithm (the loss of a logistic or softmax scale is
/// unimodal there).
pub fn best_scale(loss: impl Fn(f64) -> f64, (low, high): (f64, f64)) -> f64 {
    let at = |log_scale: f64| loss(log_scale.exp());
    let (mut low, mut high) = (low.ln(), high.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if at(a) < at(b) { high = b } else { low = a }
    }
    f64::midpoint(low, high).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_down_a_parabola() {
        let (mut x, mut first, mut second) = (5.0, 0.0, 0.0);
        for step in 1..=2_000 {
            let gradient = 2.0 * (x - 1.0);
            adam_step(&mut x, gradient, (&mut first, &mut second), step, 0.05);
        }
        assert!((x - 1.0f64).abs() < 1e-2, "{x}");
    }

    #[test]
    fn the_best_scale_is_the_least_loss() {
        let scale = best_scale(|s: f64| (s.ln() - 0.01f64.ln()).powi(2), (1e-6, 1.0));
        assert!((scale / 0.01 - 1.0).abs() < 1e-6, "{scale}");
    }
}
