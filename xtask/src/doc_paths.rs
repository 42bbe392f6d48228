//! The paths the docs name must exist: every file or folder of the
//! repository that `docs/` and the READMEs name (a link, or a path in
//! backticks) is looked for beside the page and at the workspace root,
//! so that a move or a rename cannot leave a page pointing nowhere.
//! CHANGELOGs tell history and may name what is gone; generated paths
//! (`target/…`) and placeholders (`FILE`, `round-N`, `*.json`) are not
//! checked.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::workspace_root;

/// Every page checked: `docs/*.md` and every README.
fn pages(root: &Path) -> Result<Vec<PathBuf>> {
    let mut pages = vec![root.join("README.md")];
    for folder in ["docs", "crates", "apps"] {
        let entries =
            std::fs::read_dir(root.join(folder)).with_context(|| format!("cannot read {folder}/"))?;
        for entry in entries {
            let path = entry?.path();
            if folder == "docs" {
                if path.extension().is_some_and(|ext| ext == "md") {
                    pages.push(path);
                }
            } else if path.join("README.md").exists() {
                pages.push(path.join("README.md"));
            }
        }
    }
    pages.push(root.join("xtask/README.md"));
    pages.retain(|page| page.exists());
    pages.sort();
    Ok(pages)
}

/// The paths a page's text names: link targets, and code spans that look
/// like a path of the repository.
fn named_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    // Links: `](target)`.
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        if let Some(end) = rest.find(')') {
            found.push(rest[..end].split('#').next().unwrap_or_default().to_owned());
        }
    }
    // Code spans: `like/this.rs`.
    for (i, span) in text.split('`').enumerate() {
        if i % 2 == 1 && span.contains('/') && !span.contains(char::is_whitespace) {
            found.push(span.to_owned());
        }
    }
    found.retain(|path| checkable(path));
    found.sort();
    found.dedup();
    found
}

/// Whether `path` names something in the repository that must exist.
fn checkable(path: &str) -> bool {
    const ROOTS: [&str; 11] = [
        "crates/",
        "apps/",
        "docs/",
        "src/",
        "tests/",
        "benches/",
        "openings/",
        "xtask/",
        "weights/",
        ".ci/",
        "examples/",
    ];
    let placeholder = path.chars().any(|c| "*<>{}$|=:,;".contains(c))
        || path.contains("...")
        || path.contains('…')
        || path
            .split(['/', '.', '-', '_'])
            .any(|word| word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase()));
    !path.is_empty()
        && !placeholder
        && ROOTS.iter().any(|root| {
            path.starts_with(root)
                || path.starts_with(&format!("../{root}"))
                || path.starts_with(&format!("../../{root}"))
        })
}

/// Checks every page; an error lists every path that does not exist.
pub fn check() -> Result<()> {
    println!("==> the paths the docs name");
    let root = workspace_root();
    let mut missing = Vec::new();
    for page in pages(root)? {
        let text =
            std::fs::read_to_string(&page).with_context(|| format!("cannot read {}", page.display()))?;
        let folder = page.parent().unwrap_or(root);
        for path in named_paths(&text) {
            let path = path.trim_end_matches('/');
            if !folder.join(path).exists() && !root.join(path).exists() {
                let shown = page.strip_prefix(root).unwrap_or(&page).display().to_string();
                missing.push(format!("{shown}: {path}"));
            }
        }
    }
    if !missing.is_empty() {
        bail!("paths named in the docs that do not exist:\n  {}", missing.join("\n  "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_paths_in_backticks_are_found_and_placeholders_left_alone() {
        let text = "See [the guide](docs/clusters.md#shards), `crates/board/src/lib.rs`, \
                    `cargo xtask ci`, `target/train/`, `weights/FAMILY-5.json`, `src/*.rs`, \
                    [a site](https://example.org/a/b) and `apps/tui/`.";
        assert_eq!(named_paths(text), ["apps/tui/", "crates/board/src/lib.rs", "docs/clusters.md"]);
    }

    #[test]
    fn the_docs_name_only_paths_that_exist() {
        check().unwrap();
    }
}
