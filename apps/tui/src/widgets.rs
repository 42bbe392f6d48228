//! Drawing pieces that every screen uses and that know nothing of the
//! app: boxes, clocks, counts, percentages, the heat colours and renju's
//! mark. A leaf: the app's modes and `ui` both draw with it.

use std::fmt::Write;

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use play::clock::Clocks;

/// The heat map's colours, worst to best.
pub(crate) const RAMP: [Color; 5] = [Color::Blue, Color::Cyan, Color::Green, Color::Yellow, Color::Red];

/// The mark of a point black may not play under renju.
pub const FORBIDDEN_MARK: &str = "×";

/// A box of `width` × `height` in the middle of `area`.
pub(crate) fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height }
}

/// A side's clock: time left, and the move's time left under a turn limit.
pub(crate) fn clock_line(clocks: &Clocks, side: board::Side, to_move: bool, fallen: bool) -> Line<'static> {
    let now = std::time::Instant::now();
    let left = clocks.left(side, now);
    let mut text = format!("   clock {}", Clocks::show(left));
    if to_move && clocks.control.turn.is_some() {
        let _ = write!(text, "  move {}", Clocks::show(clocks.for_this_move(side, now)));
    }
    let style = if fallen {
        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else if to_move {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(Color::Gray)
    };
    let flag = if fallen { "  flag fell" } else { "" };
    Line::from(Span::styled(format!("{text}{flag}"), style))
}

/// 1234567 as `1.2M`.
pub(crate) fn si(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A chance as a percentage.
pub(crate) fn percent(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}
