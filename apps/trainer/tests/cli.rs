//! The trainer end to end: files written, summaries, and clear errors.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn trainer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer")).args(args).output().expect("the trainer runs")
}

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mnk-trainer-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn each_learner_writes_its_table_curve_and_plot() {
    let dir = dir("learners");
    for learner in ["matrix", "montecarlo", "td"] {
        let out = dir.join(format!("{learner}.table"));
        let output = trainer(&[
            learner,
            "--games",
            "5000",
            "--block",
            "500",
            "--checkpoint-games",
            "200",
            "--eval-games",
            "2000",
            "--out",
            out.to_str().unwrap(),
            "--json",
        ]);
        assert!(output.status.success(), "{learner}: {}", String::from_utf8_lossy(&output.stderr));
        let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(summary["games"], 5000);
        let training = &summary["training"];
        let games: u64 = ["x_wins", "o_wins", "draws"].iter().map(|k| training[k].as_u64().unwrap()).sum();
        assert_eq!(games, 5000);
        let as_x = &summary["versus_random"]["as_x"];
        assert!(as_x["wins"].as_u64().unwrap() > as_x["losses"].as_u64().unwrap(), "{learner}: {summary}");
        let table = tabular_rl::Table::load(&out).unwrap();
        assert_eq!(table.kind(), learner);
        let csv = std::fs::read_to_string(out.with_extension("csv")).unwrap();
        assert!(csv.starts_with("games,learner_wins"));
        assert!(csv.lines().count() >= 2);
        let svg = std::fs::read_to_string(out.with_extension("svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains(learner));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_classic_learner_reports_its_training_games() {
    let dir = dir("classic");
    let out = dir.join("x.table");
    let output = trainer(&[
        "matrix",
        "--side",
        "x",
        "--symmetric",
        "false",
        "--games",
        "100000",
        "--eval-games",
        "1000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.contains("classic keys"), "{text}");
    // "Tabular learners" in docs/algorithms.md: X won 89,346 of the classic's 100,000 training games.
    let x_won: f64 = text
        .split("training games: X won ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no training results in {text}"));
    assert!((x_won - 89_346.0).abs() < 2_000.0, "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_is_a_clear_error() {
    let out = dir("bad").join("t.table");
    let out = out.to_str().unwrap();
    let ga_out = dir("bad").join("ga");
    let ga_out = ga_out.to_str().unwrap();
    let cases: [(&[&str], &str); 10] = [
        (
            &["ga", "--preset", "classic", "--start", "w.json", "--out", ga_out],
            "the classic run starts at random",
        ),
        (&["ga", "--preset", "refine", "--start", "/no/such/w.json", "--out", ga_out], "--start: cannot use"),
        (&["ga", "--resume", "--start", "w.json", "--out", ga_out], "cannot be used with"),
        (&["ga", "--preset", "strong", "--opening-plies", "2", "--out", ga_out], "the refine run's openings"),
        (
            &["ga", "--preset", "refine", "--opening-plies", "3", "--out", ga_out],
            "possible values: 2, 4, mixed",
        ),
        (&["matrix", "--rules", "7,7,4", "--out", out], "at most 40 cells"),
        (&["td", "--epsilon", "1.5", "--out", out], "--epsilon must be between 0 and 1"),
        (&["matrix", "--games", "0", "--out", out], "at least 1"),
        (&["montecarlo", "--games", "10", "--out", "/no/such/dir/t.table"], "/no/such/dir"),
        (&["matrix", "--rules", "3,3", "--out", out], "--rules"),
    ];
    for (args, message) in cases {
        let output = trainer(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn ga_writes_weights_log_and_plot_and_repeats_for_a_seed() {
    let dir = dir("ga");
    let run = |name: &str| {
        let out = dir.join(name);
        let output = trainer(&[
            "ga",
            "--preset",
            "classic",
            "--generations",
            "3",
            "--population",
            "6",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        // The initial population's fitness, one per individual: 6 × 5 games,
        // a point each.
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let line = stdout.lines().find(|line| line.contains("every individual")).expect("the list");
        let list = line.split(['[', ']']).nth(1).unwrap();
        let fitness: Vec<u32> = list.split(", ").map(|f| f.parse().unwrap()).collect();
        assert_eq!(fitness.len(), 6, "{line}");
        assert_eq!(fitness.iter().sum::<u32>(), 30, "{line}");
        out
    };
    let (a, b) = (run("a"), run("b"));
    let weights = std::fs::read_to_string(a.join("weights.json")).unwrap();
    assert_eq!(weights, std::fs::read_to_string(b.join("weights.json")).unwrap());
    assert_eq!(weights.trim().trim_matches(['[', ']']).split(',').count(), 109);
    let log = std::fs::read_to_string(a.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 5, "a header, the initial population and 3 generations: {log}");
    assert!(std::fs::read_to_string(a.join("fitness.svg")).unwrap().starts_with("<svg"));
    let loaded = pattern_eval::Weights::load(&a.join("weights.bin"), pattern_eval::Family::Classic).unwrap();
    assert_eq!(loaded.to_json(), weights.trim());

    // A finished run is not overwritten; resuming it has nothing left to do.
    let again = trainer(&["ga", "--preset", "classic", "--out", a.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"), "{again:?}");
    let resumed = trainer(&["ga", "--resume", "--out", a.to_str().unwrap()]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(weights, std::fs::read_to_string(a.join("weights.json")).unwrap());
    let missing = trainer(&["ga", "--resume", "--out", dir.join("none").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"), "{missing:?}");

    // A resume keeps the run's settings: other flags are refused by name…
    let out = a.to_str().unwrap();
    for (flags, named) in [
        (&["--seed", "10"][..], "--seed (the run's is 42)"),
        (&["--preset", "strong"][..], "--preset (the run is classic)"),
        (&["--population", "7", "--family", "ternary"][..], "--population (the run has 6)"),
        (&["--generations", "2"][..], "--generations below the run's 3"),
    ] {
        let output = trainer(&[&["ga", "--resume", "--out", out][..], flags].concat());
        assert!(!output.status.success(), "{flags:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains(named), "{flags:?}: {output:?}");
    }
    // …but more generations extend it.
    let longer = trainer(&["ga", "--resume", "--generations", "4", "--out", out]);
    assert!(longer.status.success(), "{}", String::from_utf8_lossy(&longer.stderr));
    assert!(String::from_utf8_lossy(&longer.stdout).contains("the classic run"), "{longer:?}");
    let log = std::fs::read_to_string(a.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 6, "a header, the initial population and 4 generations: {log}");

    // `trainer weights` checks the pair and installs it (what `cargo xtask export-weights` calls).
    let target = dir.join("installed.json");
    let output = trainer(&["weights", out, "--install", target.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (report["family"].as_str(), report["k"].as_u64(), report["values"].as_u64()),
        (Some("classic"), Some(5), Some(109))
    );
    let installed = std::fs::read_to_string(&target).unwrap();
    assert_eq!(installed.trim(), std::fs::read_to_string(a.join("weights.json")).unwrap().trim());
    // A pair that disagrees is refused, and nothing is written.
    std::fs::write(b.join("weights.json"), format!("[{}]", vec!["1"; 109].join(","))).unwrap();
    let refused = dir.join("refused.json");
    let output = trainer(&["weights", b.to_str().unwrap(), "--install", refused.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("disagree"), "{output:?}");
    assert!(!refused.exists());
    let output = trainer(&["weights", dir.join("none").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read"), "{output:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Self-play of a small alpha-beta on 9×9 into `out`, as JSON.
fn quick_selfplay(out: &str, extra: &[&str]) -> Output {
    let args = [
        &[
            "selfplay",
            "--rules",
            "9,9,5",
            "--engine",
            "alphabeta:tt_mb=1",
            "--openings",
            "none",
            "--nodes",
            "400",
            "--threads",
            "2",
            "--out",
            out,
            "--json",
        ][..],
        extra,
    ]
    .concat();
    trainer(&args)
}

#[test]
fn selfplay_then_tune_write_data_weights_and_curves() {
    let dir = dir("threat");
    let data = dir.join("games.selfplay");
    let data = data.to_str().unwrap();
    let selfplay = |extra: &[&str]| quick_selfplay(data, extra);
    let output = selfplay(&["--games", "12"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["games"].as_u64().unwrap() + report["forfeits"].as_u64().unwrap(), 12);
    assert!(report["positions"].as_u64().unwrap() > 12 * 5, "{report}");
    // The file is kept unless resumed; resumed, only the missing games are played.
    assert!(String::from_utf8_lossy(&selfplay(&["--games", "14"]).stderr).contains("--resume"));
    let more: Value = serde_json::from_slice(&selfplay(&["--games", "14", "--resume"]).stdout).unwrap();
    assert_eq!((more["games_kept"].as_u64(), more["games"].as_u64()), (Some(12), Some(2)));

    let out = dir.join("tune");
    let tune = |extra: &[&str]| {
        let args =
            [&["tune", "--data", data, "--batch", "64", "--out", out.to_str().unwrap(), "--json"][..], extra]
                .concat();
        trainer(&args)
    };
    let output = tune(&["--epochs", "3"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let fit: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(fit["k"].as_f64().unwrap() > 0.0, "{fit}");
    assert_eq!(fit["epochs"], 3);
    let csv = std::fs::read_to_string(out.join("loss.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "a header, before, and 3 epochs: {csv}");
    assert!(std::fs::read_to_string(out.join("loss.svg")).unwrap().starts_with("<svg"));
    let weights = pattern_eval::ThreatWeights::load(&out.join("weights.json")).unwrap();
    assert_eq!(pattern_eval::ThreatWeights::load(&out.join("weights.bin")).unwrap(), weights);
    // A fit is not overwritten; resumed to more epochs, it goes on.
    assert!(String::from_utf8_lossy(&tune(&["--epochs", "3"]).stderr).contains("--resume"));
    let longer = tune(&["--resume", "--epochs", "4"]);
    assert!(longer.status.success(), "{}", String::from_utf8_lossy(&longer.stderr));
    assert_eq!(std::fs::read_to_string(out.join("loss.csv")).unwrap().lines().count(), 6);
    // …but not on other data.
    let fewer = dir.join("fewer.selfplay");
    let output = quick_selfplay(fewer.to_str().unwrap(), &["--games", "11"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let other = trainer(&[
        "tune",
        "--data",
        fewer.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resume",
        "--epochs",
        "5",
        "--batch",
        "64",
    ]);
    assert!(String::from_utf8_lossy(&other.stderr).contains("other data"), "{other:?}");
    // `trainer weights` knows the threat family too.
    let installed = dir.join("installed.json");
    let output = trainer(&["weights", out.to_str().unwrap(), "--install", installed.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let longer_weights = pattern_eval::ThreatWeights::load(&out.join("weights.json")).unwrap();
    assert_eq!(pattern_eval::ThreatWeights::load(&installed).unwrap(), longer_weights);
    // A move policy from the same games; bad settings are clear errors.
    let policy = dir.join("policy.json");
    let policy_args = |steps: &str| {
        trainer(&["policy", "--data", data, "--steps", steps, "--out", policy.to_str().unwrap()])
    };
    let output = policy_args("5");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("held out:"), "{output:?}");
    pattern_eval::MovePolicy::load(&policy).unwrap().check().unwrap();
    assert!(String::from_utf8_lossy(&policy_args("0").stderr).contains("--steps must be"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn selfplay_and_tune_refuse_bad_input_clearly() {
    let dir = dir("threat-bad");
    let elsewhere = dir.join("elsewhere");
    let data = dir.join("none.selfplay");
    let data = data.to_str().unwrap();

    for (args, message) in [
        (
            &["tune", "--data", "/no/such.selfplay", "--out", elsewhere.to_str().unwrap()][..],
            "cannot read /no/such.selfplay",
        ),
        (
            &["selfplay", "--engine", "alphabeta:depth=0", "--out", data, "--resume"],
            "option depth of alphabeta",
        ),
        (&["selfplay", "--engine", "tree", "--out", data, "--resume"], "cannot play"),
        (&["selfplay", "--games", "0", "--out", data], "at least 1"),
    ] {
        let output = trainer(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ga_in_local_shards_evolves_exactly_as_in_one_process() {
    let base = dir("ga-shards");
    let run = |name: &str, extra: &[&str]| {
        let out = base.join(name);
        let out_text = out.display().to_string();
        let mut args =
            vec!["ga", "--preset", "strong", "--generations", "2", "--population", "4", "--out", &out_text];
        args.extend_from_slice(extra);
        let output = trainer(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        (
            std::fs::read_to_string(out.join("log.csv")).unwrap(),
            std::fs::read_to_string(out.join("weights.json")).unwrap(),
        )
    };
    let whole = run("whole", &[]);
    let sharded = run("sharded", &["--shards", "3", "--threads", "1"]);
    assert_eq!(whole, sharded);
    assert!(
        !base.join("sharded/shards/generation-00000").exists(),
        "a generation's shards are removed once merged"
    );

    let bad = trainer(&["ga", "--out", &base.join("bad").display().to_string(), "--shards", "0"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--shards must be from 1"));
    let shard =
        trainer(&["ga-shard", "--work", "/nonexistent/games.json", "--shard", "0/2", "--out", "/tmp/x.json"]);
    assert!(String::from_utf8_lossy(&shard.stderr).contains("cannot read /nonexistent/games.json"));
    let _ = std::fs::remove_dir_all(base);
}

#[test]
fn label_shards_resume_merge_and_feed_tune() {
    let dir = dir("label");
    let games = dir.join("games.selfplay");
    let output = quick_selfplay(games.to_str().unwrap(), &["--games", "24"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let label = |out: &PathBuf, extra: &[&str]| {
        let args = [
            &[
                "label",
                games.to_str().unwrap(),
                "--judge",
                "alphabeta:tt_mb=1",
                "--nodes",
                "300",
                "--from-ply",
                "2",
                "--threads",
                "2",
                "--out",
                out.to_str().unwrap(),
                "--json",
            ][..],
            extra,
        ]
        .concat();
        trainer(&args)
    };
    let whole = dir.join("whole.labels");
    let output = label(&whole, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let all = report["labelled"].as_u64().unwrap() + report["without_value"].as_u64().unwrap();
    assert!(all > 24 * 4, "{report}");
    // Two shards, the first in two sittings (a limit, then --resume):
    // merged, they hold what the whole run holds.
    let parts: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("part-{i}.labels"))).collect();
    let first = label(&parts[0], &["--shard", "0/2", "--limit", "3"]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let again = label(&parts[0], &["--shard", "0/2"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"), "{again:?}");
    let other_judge = trainer(&[
        "label",
        games.to_str().unwrap(),
        "--judge",
        "alphabeta:tt_mb=2",
        "--nodes",
        "300",
        "--from-ply",
        "2",
        "--shard",
        "0/2",
        "--out",
        parts[0].to_str().unwrap(),
        "--resume",
    ]);
    assert!(String::from_utf8_lossy(&other_judge.stderr).contains("other settings"), "{other_judge:?}");
    for (part, extra) in
        [(&parts[0], &["--shard", "0/2", "--resume"]), (&parts[1], &["--shard", "1/2", "--resume"])]
    {
        let output = label(part, extra);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let merged = dir.join("merged.labels");
    let output = trainer(&[
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--json",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let merge: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(merge["labels"], report["labelled"], "{merge} {report}");
    // The labels feed a fit, which reports its held-out loss against the judge.
    let out = dir.join("fit");
    let output = trainer(&[
        "tune",
        "--labels",
        merged.to_str().unwrap(),
        "--family",
        "codes",
        "--score-weight",
        "1",
        "--epochs",
        "2",
        "--batch",
        "16",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let fit: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(fit["validation_against_judge"]["after"].as_f64().unwrap() > 0.0, "{fit}");
    pattern_eval::CodeWeights::load(&out.join("weights.json")).unwrap();
    fits_a_network(&dir, &merged, &games);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn charts_never_replace_an_input_nor_hang_on_a_fifo() {
    let dir = dir("charts");
    // A records file (its games do not matter: the check comes first), and a link to it.
    let records = dir.join("rec.jsonl");
    let _ = std::fs::remove_file(&records);
    std::fs::write(&records, "").unwrap();
    let link = dir.join("link.svg");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&records, &link).unwrap();
    for plot in [&records, &link] {
        let output = trainer(&["calibrate", records.to_str().unwrap(), "--plot", plot.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains("is the records file"), "{stderr}");
    }
    // A policy or a fit never writes over its labels, even through a link.
    let labels = dir.join("in.labels");
    std::fs::write(&labels, "kept").unwrap();
    let to_labels = dir.join("policy.json");
    let _ = std::fs::remove_file(&to_labels);
    std::os::unix::fs::symlink(&labels, &to_labels).unwrap();
    let output =
        trainer(&["policy", "--labels", labels.to_str().unwrap(), "--out", to_labels.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("is the input"), "{output:?}");
    let fit = dir.join("fit-over");
    std::fs::create_dir_all(&fit).unwrap();
    let over = fit.join("weights.json");
    let _ = std::fs::remove_file(&over);
    std::os::unix::fs::symlink(&labels, &over).unwrap();
    let output = trainer(&["tune", "--labels", labels.to_str().unwrap(), "--out", fit.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("would be written over the input"),
        "{output:?}"
    );
    assert_eq!(std::fs::read_to_string(&labels).unwrap(), "kept");
    // A fit whose chart would go onto a FIFO says so and ends.
    let data = dir.join("games.selfplay");
    let output = quick_selfplay(data.to_str().unwrap(), &["--games", "12"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let out = dir.join("fit");
    std::fs::create_dir_all(&out).unwrap();
    let fifo = out.join("loss.svg");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let output = trainer(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("loss.svg"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn label_reads_sgf_and_refuses_bad_input() {
    let dir = dir("label-sgf");
    let games = dir.join("games.selfplay");
    let output = quick_selfplay(games.to_str().unwrap(), &["--games", "2"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let sgf = dir.join("one.sgf");
    std::fs::write(&sgf, "(;GM[4]SZ[9]RU[0]RE[W+];B[ee];W[ff];B[de];W[gg];B[ce];W[hh])").unwrap();
    // An SGF collection is a source too; bad input is refused clearly.
    let from_sgf = dir.join("sgf.labels");
    let output = trainer(&[
        "label",
        sgf.to_str().unwrap(),
        "--judge",
        "alphabeta:tt_mb=1",
        "--nodes",
        "200",
        "--out",
        from_sgf.to_str().unwrap(),
        "--json",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let sgf_report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(sgf_report["labelled"].as_u64().unwrap() + sgf_report["without_value"].as_u64().unwrap(), 2);
    let tune_out = dir.join("tune-refused");
    for (args, message) in [
        (vec!["label", games.to_str().unwrap(), "--judge", "alphabeta", "--out", "x.labels"], "a budget"),
        (
            vec!["label", games.to_str().unwrap(), "--judge", "random", "--nodes", "5", "--out", "x.labels"],
            "--scale is needed",
        ),
        (
            vec![
                "label",
                games.to_str().unwrap(),
                "--judge",
                "alphabeta",
                "--nodes",
                "5",
                "--out",
                games.to_str().unwrap(),
            ],
            "both a game file",
        ),
        (
            vec!["tune", "--labels", games.to_str().unwrap(), "--out", tune_out.to_str().unwrap()],
            "not a label file",
        ),
    ] {
        let output = trainer(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(!tune_out.exists(), "a refused fit leaves no folder behind");
    let _ = std::fs::remove_dir_all(dir);
}

/// The network fitted to `labels` (judged by `alphabeta:tt_mb=1` at 300
/// nodes): rounded, measured against the tables, with the judge in its
/// provenance; bad input refused.
fn fits_a_network(dir: &std::path::Path, merged: &std::path::Path, games: &std::path::Path) {
    let net_dir = dir.join("net");
    let output = trainer(&[
        "net",
        "--labels",
        merged.to_str().unwrap(),
        "--epochs",
        "4",
        "--batch",
        "8",
        "--out",
        net_dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let net: Value = serde_json::from_slice(&output.stdout).unwrap();
    let losses = net["losses"].as_array().unwrap();
    assert_eq!(losses.len(), 4, "{net}");
    assert!(
        losses[3][0].as_f64().unwrap() < losses[0][0].as_f64().unwrap(),
        "the training loss falls: {net}"
    );
    for model in ["float", "rounded", "codes"] {
        assert!(net["held_out"][model]["judge"].as_f64().unwrap() > 0.0, "{net}");
    }
    assert!(
        !net["held_out"]["rounded"]["curve"].as_array().unwrap().is_empty(),
        "a calibration curve: {net}"
    );
    let weights = pattern_eval::NetWeights::load(&net_dir.join("net.bin")).unwrap();
    assert!(weights.provenance.contains("judge alphabeta:tt_mb=1 at 300 nodes"), "{}", weights.provenance);
    // A fit from that network measures it first: as the first fit measured
    // its rounded network, on the same held-out positions.
    let started = dir.join("net-started");
    let start = net_dir.join("net.bin");
    let args = ["--epochs", "1", "--batch", "8", "--json", "--start", start.to_str().unwrap()];
    let output = trainer(
        &[&["net", "--labels", merged.to_str().unwrap(), "--out", started.to_str().unwrap()][..], &args[..]]
            .concat(),
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let again: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(again["held_out"]["start"]["judge"], net["held_out"]["rounded"]["judge"], "{again}");
    let refit = pattern_eval::NetWeights::load(&started.join("net.bin")).unwrap();
    assert!(refit.provenance.contains("--start net.bin"), "{}", refit.provenance);
    anchors_to_its_start(dir, merged, &start);
    fits_a_policy(dir, merged, &start, &weights);
    let not_a_net = dir.join("net-not-a-net");
    let report = net_dir.join("report.json");
    let output = trainer(&[
        "net",
        "--labels",
        merged.to_str().unwrap(),
        "--start",
        report.to_str().unwrap(),
        "--out",
        not_a_net.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--start"), "{output:?}");
    assert!(!not_a_net.exists(), "a refused start leaves no folder behind");
    // A second fit into the same folder is refused and leaves the first;
    // an output onto an input is refused.
    let again = trainer(&["net", "--labels", merged.to_str().unwrap(), "--out", net_dir.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("holds a network already"), "{again:?}");
    assert_eq!(pattern_eval::NetWeights::load(&net_dir.join("net.bin")).unwrap(), weights);
    let report = net_dir.join("report.json");
    let onto = trainer(&["net", "--labels", report.to_str().unwrap(), "--out", net_dir.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&onto.stderr).contains("would be written over the input"), "{onto:?}");
    let elsewhere = dir.join("net-elsewhere");
    let refused =
        trainer(&["net", "--labels", games.to_str().unwrap(), "--out", elsewhere.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a label file"), "{refused:?}");
    assert!(!elsewhere.exists(), "a refused fit leaves no folder behind");
    let refused = trainer(&[
        "net",
        "--labels",
        merged.to_str().unwrap(),
        "--learning-rate",
        "0",
        "--out",
        elsewhere.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--learning-rate must be"), "{refused:?}");
}

/// `trainer net --anchor`: a fit pulled back towards its start says so in
/// its provenance; an anchor without a start, or one that would pull past
/// the start in a step, is refused.
fn anchors_to_its_start(dir: &std::path::Path, merged: &std::path::Path, start: &std::path::Path) {
    let anchored = dir.join("net-anchored");
    let (labels, start) = (merged.to_str().unwrap(), start.to_str().unwrap());
    let fit = ["net", "--labels", labels, "--start", start, "--epochs", "1", "--batch", "8", "--anchor"];
    let output = trainer(&[&fit[..], &["5", "--out", anchored.to_str().unwrap()][..]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let weights = pattern_eval::NetWeights::load(&anchored.join("net.bin")).unwrap();
    assert!(weights.provenance.contains("--start net.bin --anchor 5"), "{}", weights.provenance);
    let overshoot = trainer(&[&fit[..], &["1000", "--out", "unused"][..]].concat());
    let message = String::from_utf8_lossy(&overshoot.stderr);
    assert!(message.contains("--anchor times --learning-rate must stay below 1"), "{overshoot:?}");
    let startless = trainer(&["net", "--labels", labels, "--anchor", "1", "--out", "unused"]);
    assert!(String::from_utf8_lossy(&startless.stderr).contains("--start"), "{startless:?}");
    assert!(!std::path::Path::new("unused").exists(), "a refused fit leaves no folder behind");
}

/// `trainer net` with a policy head: alone on a fitted network (`start`,
/// whose weights are `weights`), and with the value.
fn fits_a_policy(
    dir: &std::path::Path,
    merged: &std::path::Path,
    start: &std::path::Path,
    weights: &pattern_eval::NetWeights,
) {
    // A policy head fitted alone on that network: its tables and value
    // head stay; fitted with the value: both change.
    let policy_dir = dir.join("net-policy");
    let start_args = ["--start", start.to_str().unwrap(), "--batch", "8", "--json", "--epochs", "4"];
    let output = trainer(
        &[
            &["net", "--labels", merged.to_str().unwrap(), "--out", policy_dir.to_str().unwrap()][..],
            &["--policy-weight", "1", "--policy-only", "--learning-rate", "0.02"][..],
            &start_args[..],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let losses = report["losses"].as_array().unwrap();
    assert!(losses[3][0].as_f64() < losses[0][0].as_f64(), "the policy's loss falls: {report}");
    let measured = &report["policy_held_out"];
    for model in ["float", "rounded", "shapes"] {
        // Fifteen held-out positions: the first may miss them all, not the top 3.
        let (first, top3) =
            (measured[model]["first"].as_f64().unwrap(), measured[model]["top3"].as_f64().unwrap());
        assert!((0.0..=top3).contains(&first) && top3 > 0.0, "{report}");
    }
    let with_policy = pattern_eval::NetWeights::load(&policy_dir.join("net.bin")).unwrap();
    assert_eq!(with_policy.policy.len(), 1);
    assert_eq!((&with_policy.tables, &with_policy.heads), (&weights.tables, &weights.heads));
    assert!(with_policy.provenance.contains("--policy-weight 1 --policy-only"), "{}", with_policy.provenance);
    // With features of its own: written into the file, named in its
    // provenance, the value as it was.
    let features_dir = dir.join("net-policy-features");
    let output = trainer(
        &[
            &["net", "--labels", merged.to_str().unwrap(), "--out", features_dir.to_str().unwrap()][..],
            &["--policy-weight", "1", "--policy-only", "--policy-features", "--learning-rate", "0.02"][..],
            &start_args[..],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let with_features = pattern_eval::NetWeights::load(&features_dir.join("net.bin")).unwrap();
    assert!(with_features.policy.len() == 1 && with_features.policy[0].has_features());
    assert_eq!((&with_features.tables, &with_features.heads), (&weights.tables, &weights.heads));
    assert!(
        with_features.provenance.contains("--policy-only --policy-features"),
        "{}",
        with_features.provenance
    );
    assert!(!with_policy.policy[0].has_features());
    let featureless = trainer(
        &[
            &["net", "--labels", merged.to_str().unwrap(), "--policy-features"][..],
            &start_args[..],
            &["--out", "unused"],
        ]
        .concat(),
    );
    assert!(
        String::from_utf8_lossy(&featureless.stderr).contains("--policy-features gives"),
        "{featureless:?}"
    );
    let joint_dir = dir.join("net-joint");
    let joint =
        [&["net", "--labels", merged.to_str().unwrap(), "--policy-weight", "0.5"][..], &start_args[..]];
    let output = trainer(&[&joint.concat()[..], &["--out", joint_dir.to_str().unwrap()][..]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let jointly = pattern_eval::NetWeights::load(&joint_dir.join("net.bin")).unwrap();
    assert!(jointly.policy.len() == 1 && jointly.tables != weights.tables);
    let alone = trainer(&["net", "--labels", merged.to_str().unwrap(), "--policy-only", "--out", "unused"]);
    assert!(String::from_utf8_lossy(&alone.stderr).contains("--start"), "{alone:?}");
    let weightless = trainer(
        &[
            &["net", "--labels", merged.to_str().unwrap(), "--policy-only"][..],
            &start_args[..],
            &["--out", "unused"],
        ]
        .concat(),
    );
    assert!(
        String::from_utf8_lossy(&weightless.stderr).contains("--policy-weight above 0"),
        "{weightless:?}"
    );
}

#[test]
fn cuts_of_a_search_label_positions_that_a_policy_fits_to() {
    let dir = dir("cuts");
    let games = dir.join("games.selfplay");
    let output = quick_selfplay(games.to_str().unwrap(), &["--games", "6", "--seed", "5"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let cuts = dir.join("cuts.labels");
    let run = |out: &std::path::Path, engine: &str| {
        trainer(&[
            "cuts",
            games.to_str().unwrap(),
            "--engine",
            engine,
            "--nodes",
            "3000",
            "--min-plies",
            "1",
            "--per-position",
            "8",
            "--threads",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let output = run(&cuts, "alphabeta:tt_mb=1");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.contains("labels written to"), "{summary}");
    let file = trainer::label::LabelFile::read(&cuts).unwrap();
    assert!(file.header.settings.judge.starts_with("cuts of alphabeta"), "{:?}", file.header);
    assert!(!file.labels.is_empty());
    for label in &file.labels {
        let pos = label.position(file.header.settings.rules).unwrap();
        assert!(pos.is_legal(label.best_cell().unwrap()), "{label:?}");
        assert!(label.value.is_none() && (label.chance - 0.5).abs() < 1e-6);
    }
    // The same seed, the same labels: each search is its own.
    let again = dir.join("again.labels");
    assert!(run(&again, "alphabeta:tt_mb=1").status.success());
    assert_eq!(trainer::label::LabelFile::read(&again).unwrap().labels, file.labels);
    let fit = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let labels = ["policy", "--labels", cuts.to_str().unwrap(), "--steps", "5", "--out"];
        let output = trainer(&[&labels[..], &[out.to_str().unwrap()], extra].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        pattern_eval::MovePolicy::load(&out).unwrap()
    };
    let fitted = fit("policy.json", &[]);
    // Twos only: every shape with a three or stronger keeps its hand-set value.
    let (twos, hand) = (fit("twos.json", &["--twos-only"]), pattern_eval::MovePolicy::hand_set());
    assert_ne!(fitted, twos);
    for index in 0..pattern_eval::PLAIN_SHAPES {
        let strongest = pattern_eval::plain_shape_patterns(index)[0];
        if strongest > board::threats::Pattern::OpenTwo {
            assert_eq!((twos.made[index], twos.taken[index]), (hand.made[index], hand.taken[index]));
        }
    }
    // Not an alphabeta spec, and an output that exists: clear errors.
    let output = run(&dir.join("mcts.labels"), "mcts");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--engine must be an alphabeta spec"),
        "{output:?}"
    );
    let output = run(&cuts, "alphabeta:tt_mb=1");
    assert!(String::from_utf8_lossy(&output.stderr).contains("holds labels already"), "{output:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
