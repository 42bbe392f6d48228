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

/// Draws `series` into an SVG file at `path`, y from `y_range`.
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    y_range: (f64, f64),
    series: &[Series],
) -> Result<()> {
    let x_max = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).fold(1.0f64, f64::max);
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
                .draw_series(LineSeries::new(line.points.iter().copied(), colour.stroke_width(2)))?
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
    roster::write_file(path, &svg).map_err(Into::into)
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
    use super::tick;

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
