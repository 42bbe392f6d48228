//! What a person may give toward a RIF opening's step, one stone at a
//! time: the checks the live game makes of each stone, and the check of a
//! saved game's stones given toward the step it was saved at.

use board::{Cell, Position};
use play::opening_rules::rif::{OpeningAsk, symmetric};

/// Why a person may not give `cell` toward `ask`, having given `pending`
/// (those on the board already on `pos`), if not. The live game and a
/// saved game's resumed opening ask the same.
pub(crate) fn refusal(pos: &Position, ask: &OpeningAsk, pending: &[Cell], cell: Cell) -> Option<String> {
    let rules = pos.rules();
    let name = cell.name(rules);
    if !pos.is_legal(cell) {
        let why = pos.clone().play(cell).err().map_or_else(String::new, |err| err.to_string());
        return Some(format!("cannot put a stone on {name}: {why}"));
    }
    match ask {
        OpeningAsk::StandardOpening => {
            let radius = pending.len() as u8;
            let size = 2 * radius + 1;
            (!play::opening_rules::rif::central_square(rules, radius).contains(cell)).then(|| {
                format!("stone {} of a standard opening lies within the central {size}x{size}", radius + 1)
            })
        }
        OpeningAsk::Offer { .. } => {
            let twin = pending.iter().find(|&&other| other == cell || symmetric(pos, other, cell))?;
            Some(format!("{name} is {} by a symmetry of the stones: offer another", twin.name(rules)))
        }
        OpeningAsk::Pick { offered } if pending.is_empty() && !offered.contains(&cell) => {
            Some(format!("{name} is not one of the fifth stones offered"))
        }
        OpeningAsk::MaySwap { .. } | OpeningAsk::OfferOrPut { .. } => Some("no stone now".to_owned()),
        _ => None,
    }
}

/// Checks the stones a person had given toward `ask` in a saved game,
/// after the steps' `stones`: each one the live game would have taken,
/// and no more than wait for the step's answer.
///
/// # Errors
/// Why one would have been refused, or that there are too many.
pub(crate) fn check_pending(
    rules: board::Rules,
    stones: &[Cell],
    ask: &OpeningAsk,
    pending: &[Cell],
) -> Result<(), String> {
    let most = match ask {
        OpeningAsk::StandardOpening => 2,
        OpeningAsk::FourthAndCount { .. } | OpeningAsk::Pick { .. } => 1,
        OpeningAsk::Offer { count } => usize::from(*count).saturating_sub(1),
        OpeningAsk::Put { .. } | OpeningAsk::MaySwap { .. } | OpeningAsk::OfferOrPut { .. } => 0,
    };
    if pending.len() > most {
        return Err(format!("{} stones given toward a step that waits for at most {most}", pending.len()));
    }
    let mut pos = Position::new(rules);
    for &stone in stones {
        pos.play(stone).map_err(|err| err.to_string())?;
    }
    for (i, &cell) in pending.iter().enumerate() {
        if let Some(why) = refusal(&pos, ask, &pending[..i], cell) {
            return Err(format!("a stone given toward the step: {why}"));
        }
        if !matches!(ask, OpeningAsk::Offer { .. }) {
            pos.play(cell).map_err(|err| err.to_string())?;
        }
    }
    Ok(())
}
