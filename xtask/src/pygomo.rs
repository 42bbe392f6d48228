//! `cargo xtask pygomo`: a third-party Gomocup client, the `PyPI` package
//! `pygomo-lib`, drives `pbrain-mnk` through a short game. The package is
//! installed here, into `target/pygomo-venv`; it needs the network the
//! first time, so it is not part of `cargo xtask ci`.

use anyhow::Result;

use crate::{cargo, run_step, target_dir, workspace_root};

/// The client version the script was written against.
const PACKAGE: &str = "pygomo-lib==0.1.1";

pub fn run() -> Result<()> {
    let venv = target_dir().join("pygomo-venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        run_step(
            "create a Python venv",
            std::process::Command::new("python3").args(["-m", "venv"]).arg(&venv),
        )?;
    }
    run_step(
        &format!("pip install {PACKAGE}"),
        std::process::Command::new(&python).args(["-m", "pip", "install", "--quiet", PACKAGE]),
    )?;
    run_step("build pbrain-mnk", cargo().args(["build", "--release", "--quiet", "--package", "pbrain"]))?;
    let brain = target_dir().join("release").join("pbrain-mnk");
    run_step(
        "pygomo-lib plays pbrain-mnk",
        std::process::Command::new(&python)
            .arg(workspace_root().join("xtask/scripts/pygomo_game.py"))
            .arg(&brain),
    )
}
