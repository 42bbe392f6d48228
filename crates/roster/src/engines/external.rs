//! `external`: a Gomocup brain executable, driven through the protocol.

use std::path::PathBuf;
use std::sync::Arc;

use board::{Agent, Rules};
use gomocup::ExternalAgent;

use super::OptionInfo;
use crate::options::Options;
use crate::spec::{Built, SpecError};

pub(super) const PATH: OptionInfo =
    OptionInfo { name: "path", help: "the brain's executable, such as /opt/brains/pbrain-xyz (required)" };
pub(super) const ARGS: OptionInfo =
    OptionInfo { name: "args", help: "arguments for the brain, separated by spaces (default none)" };

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let unusable = |reason: String| SpecError::Unusable { engine: "external", option: "path", reason };
    let path: String = options
        .get("path", "a file name")?
        .ok_or_else(|| unusable("name the brain with path=FILE".to_owned()))?;
    let path = PathBuf::from(path);
    if !path.is_file() {
        return Err(unusable(format!("{} is not a file", path.display())));
    }
    let args: Vec<String> = options
        .get::<String>("args", "arguments separated by spaces")?
        .map_or_else(Vec::new, |args| args.split_whitespace().map(str::to_owned).collect());
    let rules_check = Arc::new(|rules: &Rules| {
        let fits = |side: u8| (5..=32).contains(&side);
        if rules.k() != 5 {
            Err(format!("Gomocup brains play five in a row, not k = {}", rules.k()))
        } else if !fits(rules.width()) || !fits(rules.height()) {
            Err("Gomocup boards are 5 to 32 cells a side".to_owned())
        } else {
            Ok(())
        }
    });
    let maker =
        Arc::new(move |_seed| -> Box<dyn Agent> { Box::new(ExternalAgent::new(path.clone(), args.clone())) });
    Ok(Built { maker, rules_check })
}
