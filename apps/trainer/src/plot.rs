//! Line charts as SVG (plotters), for learning curves.

use std::path::Path;

use anyhow::{Context, Result};
use plotters::prelude::*;

/// One line of a chart: its name and its points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// The largest value a chart draws, either way.
const MAX_DRAWN: f64 = 1e12;

/// Draws `series` into an SVG file at `path`, y from `y_range`.
///
/// # Errors
/// A range or point that is not a number within ±10^12, or the file
/// cannot be written.
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    y_range: (f64, f64),
    series: &[Series],
) -> Result<()> {
    // Plotters spins on ranges it cannot divide into ticks (NaN, an
    // infinity, a range of no width or beyond what f64 steps can count).
    let drawable = |value: f64| value.is_finite() && value.abs() <= MAX_DRAWN;
    let all_points = series.iter().flat_map(|s| s.points.iter());
    // (A range too narrow for its numbers' precision has no ticks either.)
    let scale = y_range.0.abs().max(y_range.1.abs()).max(1.0);
    if !drawable(y_range.0) || !drawable(y_range.1) || y_range.1 - y_range.0 < scale * 1e-9 {
        anyhow::bail!("cannot draw {}: the range {:?} is not a range of numbers", path.display(), y_range);
    }
    if let Some(point) = all_points.clone().find(|p| !drawable(p.0) || !drawable(p.1)) {
        anyhow::bail!("cannot draw {}: the point {point:?} is not a pair of numbers", path.display());
    }
    let x_max = all_points.map(|p| p.0).fold(1.0f64, f64::max);
    // A point far outside the chart is drawn at its edge's distance (a
    // span beyond it): plotters' pixel arithmetic overflows further out.
    let y_span = y_range.1 - y_range.0;
    let on_chart =
        |(x, y): (f64, f64)| (x.clamp(-x_max, 2.0 * x_max), y.clamp(y_range.0 - y_span, y_range.1 + y_span));
    // Drawn in memory, then written as every output is (whole, through a
    // temporary file, never onto a FIFO or a device).
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (900, 540)).into_drawing_area();
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..x_max, y_range.0..y_range.1)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_label_formatter(&|value| tick(*value))
            .y_label_formatter(&|value| tick(*value))
            .draw()?;
        for (i, line) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            chart
                .draw_series(LineSeries::new(
                    line.points.iter().copied().map(on_chart),
                    colour.stroke_width(2),
                ))?
                .label(line.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2)));
        }
        // Learning curves rise: the lower right is where they are not.
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    draw()
        .map_err(|error| anyhow::anyhow!("{error}"))
        .with_context(|| format!("cannot draw {}", path.display()))?;
    drop(root);
    roster::shell::write_file(path, &svg).map_err(Into::into)
}

/// An axis label: whole numbers without a decimal point, large ones in
/// thousands so that they fit the label area.
fn tick(value: f64) -> String {
    if value.abs() >= 10_000.0 {
        format!("{}k", tick(value / 1000.0))
    } else if (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_point_far_outside_a_narrow_range_is_drawn_at_its_edge_or_refused() {
        // Found by the property below: plotters' pixels overflowed.
        let path = std::env::temp_dir().join(format!("mnk-chart-edge-{}.svg", std::process::id()));
        let series = [Series { name: "far".to_owned(), points: vec![(0.0, -43.7)] }];
        assert!(line_chart(&path, "t", "x", "y", (0.0, 3.2e-290), &series).is_err());
        let series = [Series { name: "far".to_owned(), points: vec![(0.0, -1e12), (-1e12, 1e12)] }];
        line_chart(&path, "t", "x", "y", (0.0, 1e-3), &series).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
        let _ = std::fs::remove_file(&path);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        // Any points (NaN, infinities, huge) and any range: a chart is
        // drawn or refused with a reason, and a file is whole or absent.
        #[test]
        fn any_series_draws_or_is_refused(
            points in prop::collection::vec((prop::num::f64::ANY, prop::num::f64::ANY), 0..20),
            low in prop_oneof![prop::num::f64::ANY, -1e3..1e3_f64],
            high in prop_oneof![prop::num::f64::ANY, -1e3..1e3_f64],
        ) {
            let path = std::env::temp_dir().join(format!("mnk-chart-{}.svg", std::process::id()));
            let _ = std::fs::remove_file(&path);
            let series = [Series { name: "fuzz".to_owned(), points }];
            if line_chart(&path, "t", "x", "y", (low, high), &series).is_ok() {
                prop_assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
            }
            let _ = std::fs::remove_file(&path);
        }
    }

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(tick(1.0), "1");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(0.126), "0.13");
        assert_eq!(tick(100_000.0), "100k");
        assert_eq!(tick(12_500.0), "12.5k");
        assert_eq!(tick(-3.0), "-3");
    }
}
