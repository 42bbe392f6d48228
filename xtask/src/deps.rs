//! The dependency check of `cargo xtask ci`: every dependency between our
//! crates that `cargo metadata` shows must be allowed by the table in
//! docs/ARCHITECTURE.md, and two rules hold whatever the table says: no
//! engine crate depends on another, and no crate depends on an app.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Stdio;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{cargo, workspace_root};

/// The engine crates, which meet only through `board`.
const ENGINES: &[&str] = &["pattern-eval", "minimax-tree", "mcts", "tabular-rl"];

/// The info string of the table's code block in the document.
const TABLE: &str = "```text allowed-dependencies";

/// Crate → (normal and build dependencies allowed, dev-dependencies allowed).
type Allowed = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

/// Crate → (normal and build dependencies, dev-dependencies), our crates only.
type Graph = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

pub fn check() -> Result<()> {
    println!("==> dependency graph against docs/ARCHITECTURE.md");
    let path = workspace_root().join("docs/ARCHITECTURE.md");
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let allowed = parse_table(&text)?;
    let output = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed");
    }
    let metadata: Value = serde_json::from_slice(&output.stdout).context("cargo metadata printed no JSON")?;
    let (graph, apps) = graph(&metadata)?;
    let problems = problems(&graph, &apps, &allowed);
    if problems.is_empty() {
        println!("    {} crates, every dependency allowed", graph.len());
        Ok(())
    } else {
        bail!("the dependency graph breaks docs/ARCHITECTURE.md:\n  {}", problems.join("\n  "))
    }
}

/// Reads the table: `name -> deps...` and `name (dev) -> deps...` lines.
fn parse_table(text: &str) -> Result<Allowed> {
    let start = text.find(TABLE).context("docs/ARCHITECTURE.md has no allowed-dependencies table")?;
    let body = &text[start + TABLE.len()..];
    let body = &body[..body.find("```").context("the allowed-dependencies table is not closed")?];
    let mut allowed = Allowed::new();
    for line in body.lines().map(str::trim).filter(|line| !line.is_empty()) {
        let (left, right) =
            line.split_once("->").with_context(|| format!("cannot read {line:?}: write `name -> deps`"))?;
        let mut left = left.split_whitespace();
        let name = left.next().with_context(|| format!("no crate named in {line:?}"))?.to_owned();
        let dev = match left.next() {
            None => false,
            Some("(dev)") => true,
            Some(other) => bail!("cannot read {other:?} in {line:?}: only `(dev)` may follow the name"),
        };
        let deps: BTreeSet<String> = right.split_whitespace().map(str::to_owned).collect();
        let entry = allowed.entry(name).or_default();
        if dev { entry.1.extend(deps) } else { entry.0.extend(deps) }
    }
    Ok(allowed)
}

/// Our crates, their dependencies on each other, and which are apps
/// (under `apps/`).
fn graph(metadata: &Value) -> Result<(Graph, BTreeSet<String>)> {
    let packages = metadata["packages"].as_array().context("cargo metadata lists no packages")?;
    let ours: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut graph = Graph::new();
    let mut apps = BTreeSet::new();
    for package in packages {
        let name = package["name"].as_str().context("a package without a name")?;
        let manifest = package["manifest_path"].as_str().unwrap_or_default().replace('\\', "/");
        if manifest.contains("/apps/") {
            apps.insert(name.to_owned());
        }
        let entry: &mut (BTreeSet<String>, BTreeSet<String>) = graph.entry(name.to_owned()).or_default();
        for dependency in package["dependencies"].as_array().into_iter().flatten() {
            let Some(dep) = dependency["name"].as_str().filter(|dep| ours.contains(dep)) else { continue };
            match dependency["kind"].as_str() {
                Some("dev") => entry.1.insert(dep.to_owned()),
                _ => entry.0.insert(dep.to_owned()),
            };
        }
    }
    Ok((graph, apps))
}

/// Every way `graph` breaks the table or the two rules.
fn problems(graph: &Graph, apps: &BTreeSet<String>, allowed: &Allowed) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, (normal, dev)) in graph {
        let Some((may, may_dev)) = allowed.get(name) else {
            problems.push(format!("{name} is not in the table: place it in a layer"));
            continue;
        };
        for dep in normal {
            if !may.contains(dep) {
                problems.push(format!("{name} depends on {dep}, which the table does not allow"));
            }
        }
        for dep in dev {
            if !may_dev.contains(dep) && !may.contains(dep) {
                problems.push(format!("{name} dev-depends on {dep}, which the table does not allow"));
            }
        }
        for dep in normal.iter().chain(dev) {
            if ENGINES.contains(&name.as_str()) && ENGINES.contains(&dep.as_str()) {
                problems
                    .push(format!("engine {name} depends on engine {dep}: engines meet only through board"));
            }
            if apps.contains(dep) && name != "mnk" {
                problems.push(format!("{name} depends on the app {dep}"));
            }
        }
    }
    for name in allowed.keys().filter(|name| !graph.contains_key(*name)) {
        problems.push(format!("the table names {name}, which is not a crate of the workspace"));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|&name| name.to_owned()).collect()
    }

    #[test]
    fn the_table_is_read() {
        let text =
            "intro\n```text allowed-dependencies\nboard ->\nmcts -> board\nmnk (dev) -> mcts tui\n```\nmore";
        let allowed = parse_table(text).unwrap();
        assert_eq!(allowed["board"], (set(&[]), set(&[])));
        assert_eq!(allowed["mcts"], (set(&["board"]), set(&[])));
        assert_eq!(allowed["mnk"], (set(&[]), set(&["mcts", "tui"])));
        assert!(parse_table("no table").is_err());
        assert!(parse_table("```text allowed-dependencies\nmcts board\n```").is_err());
        assert!(parse_table("```text allowed-dependencies\nmcts (test) -> board\n```").is_err());
    }

    #[test]
    fn what_the_table_and_the_rules_forbid_is_found() {
        let allowed =
            parse_table("```text allowed-dependencies\nboard ->\nmcts -> board pattern-eval\npattern-eval -> board\ntui -> board\nmnk (dev) -> tui\n```")
                .unwrap();
        let apps = set(&["tui"]);
        let mut graph = Graph::new();
        graph.insert("board".into(), (set(&[]), set(&[])));
        graph.insert("pattern-eval".into(), (set(&["board"]), set(&[])));
        graph.insert("tui".into(), (set(&["board"]), set(&[])));
        graph.insert("mnk".into(), (set(&[]), set(&["tui"])));
        graph.insert("mcts".into(), (set(&["board"]), set(&[])));
        assert!(problems(&graph, &apps, &allowed).is_empty());
        graph.remove("tui");
        assert_eq!(
            problems(&graph, &apps, &allowed),
            ["the table names tui, which is not a crate of the workspace"]
        );
        graph.insert("tui".into(), (set(&["board"]), set(&[])));
        // An engine on another engine: refused even where the table allows it.
        graph.insert("mcts".into(), (set(&["board", "pattern-eval"]), set(&[])));
        assert_eq!(
            problems(&graph, &apps, &allowed),
            ["engine mcts depends on engine pattern-eval: engines meet only through board"]
        );
        // An edge the table does not list, a crate on an app, a crate not placed.
        graph.insert("mcts".into(), (set(&["board"]), set(&["tui"])));
        graph.insert("arena".into(), (set(&["board"]), set(&[])));
        let found = problems(&graph, &apps, &allowed);
        assert_eq!(
            found,
            [
                "arena is not in the table: place it in a layer",
                "mcts dev-depends on tui, which the table does not allow",
                "mcts depends on the app tui",
            ]
        );
    }

    #[test]
    fn the_workspace_keeps_its_architecture() {
        // The real check, as CI runs it.
        check().unwrap();
    }
}
