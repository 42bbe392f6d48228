//! `external`: a Gomocup brain executable, driven through the protocol.

use std::path::PathBuf;
use std::sync::Arc;

use gomocup::ExternalAgent;
use play::Agent;

use crate::built::Built;
use crate::error::SpecError;
use crate::options::Options;

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let unusable = |reason: String| SpecError::Unusable { engine: "external", option: "path", reason };
    let path: String =
        options.given("path")?.ok_or_else(|| unusable("name the brain with path=FILE".to_owned()))?;
    let path = PathBuf::from(path);
    if !path.is_file() {
        return Err(unusable(format!("{} is not a file", path.display())));
    }
    let args: Vec<String> = options
        .given::<String>("args")?
        .map_or_else(Vec::new, |args| args.split_whitespace().map(str::to_owned).collect());
    let rules_check = Arc::new(ExternalAgent::check_rules);
    let maker =
        Arc::new(move |_seed| -> Box<dyn Agent> { Box::new(ExternalAgent::new(path.clone(), args.clone())) });
    Ok(Built { maker, rules_check })
}
