//! The bench app end to end: its figures, its JSON, and its errors.

use std::process::{Command, Output};

use serde_json::Value;

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bench")).args(args).output().expect("the bench binary runs")
}

fn json(args: &[&str]) -> Value {
    let output = bench(args);
    assert!(output.status.success(), "bench {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

fn count(value: &Value, key: &str) -> u64 {
    value[key].as_u64().unwrap_or_else(|| panic!("{key} missing in {value}"))
}

#[test]
fn perft_counts_tic_tac_toe() {
    let value = json(&["perft", "--rules", "3,3,3", "--json"]);
    let nodes: Vec<u64> =
        value["nodes_per_depth"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    assert_eq!(nodes, [1, 9, 72, 504, 3024, 15120, 54720, 148_176, 200_448, 127_872]);
    assert_eq!(count(&value, "games"), 255_168);
    assert_eq!(count(&value, "x_wins"), 131_184);
    assert_eq!(count(&value, "o_wins"), 77_904);
    assert_eq!(count(&value, "draws"), 46_080);
    let table = String::from_utf8(bench(&["perft", "--rules", "3,3,3"]).stdout).unwrap();
    assert!(table.contains("finished games    255,168"), "{table}");
}

#[test]
fn perft_from_a_position_and_to_a_depth() {
    // X to move with the bottom row left: a1 and c1 win at once; after b1,
    // O takes one of a1, c1 and X wins with the other.
    let value = json(&["perft", "--rules", "3,3,3", "--position", "xox/oxo/...", "--json"]);
    assert_eq!(count(&value, "depth"), 3);
    assert_eq!(value["nodes_per_depth"], serde_json::json!([1, 3, 2, 2]));
    assert_eq!(count(&value, "x_wins"), 4);
    assert_eq!(count(&value, "games"), 4);
    let value = json(&["perft", "--rules", "15,15,5", "--depth", "2", "--json"]);
    assert_eq!(value["nodes_per_depth"], serde_json::json!([1, 225, 225 * 224]));
    assert_eq!(count(&value, "games"), 0);
}

#[test]
fn random_playouts_have_the_known_shares() {
    let value = json(&["playouts", "--rules", "3,3,3", "--games", "100000", "--seed", "1", "--json"]);
    let games = count(&value, "games");
    assert_eq!(games, 100_000);
    assert_eq!(count(&value, "x_wins") + count(&value, "o_wins") + count(&value, "draws"), games);
    // 58.5% / 28.8% / 12.7%, each within about five standard deviations.
    for (key, share) in [("x_wins", 0.585), ("o_wins", 0.288), ("draws", 0.127)] {
        let measured = count(&value, key) as f64 / games as f64;
        assert!((measured - share).abs() < 0.008, "{key}: {measured}");
    }
    assert!(value["playouts_per_second"].as_f64().unwrap() > 0.0);
    // The same seed plays the same games.
    let again = json(&["playouts", "--rules", "3,3,3", "--games", "100000", "--seed", "1", "--json"]);
    assert_eq!(value["x_wins"], again["x_wins"]);
}

#[test]
fn playouts_on_two_threads_count_both() {
    let value = json(&["playouts", "--rules", "15,15,5", "--games", "500", "--threads", "2", "--json"]);
    assert_eq!(count(&value, "games"), 1000);
    assert_eq!(count(&value, "threads"), 2);
    assert!(value["mean_moves"].as_f64().unwrap() > 9.0);
}

#[test]
fn matches_count_by_colour_and_by_engine() {
    let args = [
        "match",
        "--rules",
        "3,3,3",
        "--a",
        "random",
        "--b",
        "random:seed=9",
        "--games",
        "400",
        "--seed",
        "4",
    ];
    let one = json(&[&args[..], &["--json"]].concat());
    let two = json(&[&args[..], &["--threads", "2", "--json"]].concat());
    assert_eq!(one["pairings"], two["pairings"], "the results depend on the thread count");
    let pairing = &one["pairings"][0];
    let total = |wdl: &Value| count(wdl, "wins") + count(wdl, "draws") + count(wdl, "losses");
    assert_eq!(total(&pairing["results"]), 400);
    assert_eq!(total(&pairing["a_as_x"]), 200, "colours alternate");
    assert_eq!(total(&pairing["a_as_o"]), 200);
    assert_eq!(
        pairing["pairs"]["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>(),
        200
    );
    assert_eq!(count(pairing, "forfeits"), 0);
    assert!(pairing["elo"]["elo"].as_f64().unwrap().abs() < 100.0, "{pairing}");
    assert!(one["games_per_second"].as_f64().unwrap() > 0.0);
    // The table names both engines and the Elo.
    let table = String::from_utf8(bench(&args).stdout).unwrap();
    assert!(table.contains("random vs random:seed=9: +") && table.contains("Elo"), "{table}");
}

#[test]
fn an_sprt_match_stops_early_and_records_resume() {
    let dir = std::env::temp_dir().join(format!("mnk-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let summary = dir.join("summary.json");
    let _ = std::fs::remove_file(&records);
    let (records_arg, summary_arg) = (records.to_str().unwrap(), summary.to_str().unwrap());
    let args = [
        "match",
        "--rules",
        "3,3,3",
        "--a",
        "alphabeta",
        "--b",
        "random",
        "--games",
        "1000",
        "--sprt",
        "0,100",
        "--openings",
        "random:1",
        "--threads",
        "2",
        "--records",
        records_arg,
        "--summary",
        summary_arg,
        "--json",
    ];
    let value = json(&args);
    assert_eq!(value["sprt"]["decision"], "h1", "{value}");
    let games = count(&value["sprt"], "games");
    assert!(games < 1000 && count(&value, "games_counted") == games);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(written["sprt"], value["sprt"]);
    let lines = std::fs::read_to_string(&records).unwrap().lines().count() as u64;
    assert!(lines >= games, "{lines} records for {games} games");

    // The file is not overwritten without --resume; with it, nothing is left to play.
    let output = bench(&args);
    assert!(String::from_utf8_lossy(&output.stderr).contains("resume it"), "{output:?}");
    let again = json(&[&args[..], &["--resume"]].concat());
    assert_eq!(count(&again, "games_played_now"), 0);
    assert_eq!(again["sprt"], value["sprt"]);

    // Outputs are checked before any game: the summary may not be the
    // records file (it would replace the games), nor a folder.
    let before = std::fs::read_to_string(&records).unwrap();
    let same = [&args[..15], &["--records", records_arg, "--summary", records_arg, "--resume"]].concat();
    let output = bench(&same);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("both name"), "{output:?}");
    assert_eq!(std::fs::read_to_string(&records).unwrap(), before, "the games are kept");
    let folder = [&args[..15], &["--summary", dir.to_str().unwrap()]].concat();
    let output = bench(&folder);
    assert!(String::from_utf8_lossy(&output.stderr).contains("is a folder"), "{output:?}");
    // Nor through a link: a summary or SGF named by a link to the records
    // (or to the openings file) is the same file, and refused.
    let link = dir.join("link.json");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&records, &link).unwrap();
    for flag in ["--summary", "--sgf"] {
        let through =
            [&args[..15], &["--records", records_arg, flag, link.to_str().unwrap(), "--resume"]].concat();
        let output = bench(&through);
        assert!(
            !output.status.success() && String::from_utf8_lossy(&output.stderr).contains("both name"),
            "{output:?}"
        );
        assert_eq!(std::fs::read_to_string(&records).unwrap(), before, "the games are kept");
    }
    let merged = bench(&["merge", records_arg, "--summary", link.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&merged.stderr).contains("is one of the records files"), "{merged:?}");
    assert_eq!(std::fs::read_to_string(&records).unwrap(), before, "the games are kept");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "a1\n").unwrap();
    let to_openings = dir.join("to-openings.json");
    let _ = std::fs::remove_file(&to_openings);
    std::os::unix::fs::symlink(&openings, &to_openings).unwrap();
    let mut with_openings = args[..15].to_vec();
    with_openings[12] = openings.to_str().unwrap();
    with_openings.extend(["--summary", to_openings.to_str().unwrap()]);
    let output = bench(&with_openings);
    assert!(String::from_utf8_lossy(&output.stderr).contains("is the --openings file"), "{output:?}");
    assert_eq!(std::fs::read_to_string(&openings).unwrap(), "a1\n");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_tournament_prints_a_crosstable_and_ratings() {
    let args =
        ["tournament", "--rules", "3,3,3", "--engines", "random", "alphabeta", "pattern", "--games", "20"];
    let output = bench(&args);
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        table.contains("#2 alphabeta") && table.contains("points") && table.contains("anchor"),
        "{table}"
    );
    let value = json(&[&args[..], &["--json", "--gauntlet"]].concat());
    assert_eq!(value["pairings"].as_array().unwrap().len(), 2);
    assert_eq!(count(&value, "games_counted"), 40);
    let ratings = value["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    assert!(ratings[1]["elo"].as_f64().unwrap() > 100.0, "alphabeta well above random: {value}");
}

#[test]
fn analyze_reports_move_and_scores() {
    let value = json(&[
        "analyze",
        "--rules",
        "3,3,3",
        "--position",
        "xo./.x./..o",
        "--engine",
        "random:seed=7",
        "--json",
    ]);
    let empty = ["c3", "a2", "c2", "a1", "b1"];
    let best = value["best_move"].as_str().unwrap();
    assert!(empty.contains(&best), "{best}");
    let scores = value["scores"].as_object().unwrap();
    let mut cells: Vec<&str> = scores.keys().map(String::as_str).collect();
    cells.sort_unstable();
    let mut expected = empty.to_vec();
    expected.sort_unstable();
    assert_eq!(cells, expected);
    assert!(scores.values().all(|s| (s.as_f64().unwrap() - 0.2).abs() < 1e-9));
    assert!(value["values"].as_object().unwrap().is_empty(), "random gives no values: {value}");
}

#[test]
fn analyze_tells_a_proven_win_and_the_selective_depth() {
    // X: c3 d3 e3 (closed at b3) and f5 f6 f7 (closed at f8), X to move:
    // f3 makes two fours, a win in 3 plies.
    let mut rows = vec!["..............."; 15];
    rows[0] = "o........o.....";
    rows[7] = ".....o.........";
    rows[8] = ".....x.........";
    rows[9] = ".....x.........";
    rows[10] = ".....x.........";
    rows[12] = ".oxxx..........";
    rows[14] = "o.............o";
    // `bench analyze` of alphabeta on 15×15 under one limit, as a table or JSON.
    let analyze = |rows: &[&str], limit: [&str; 2], json: bool| {
        let position = rows.join("/");
        let mut args =
            vec!["analyze", "--rules", "15,15,5", "--position", &position, "--engine", "alphabeta"];
        args.extend(limit);
        if json {
            args.push("--json");
        }
        let output = bench(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let value: Value = serde_json::from_str(&analyze(&rows, ["--nodes", "20000"], true)).unwrap();
    assert_eq!(value["best_move"], "f3", "{value}");
    assert_eq!(value["win_in"], 3, "{value}");
    let table = analyze(&rows, ["--nodes", "20000"], false);
    assert!(table.contains("win in 3 plies (the side to move)"), "{table}");
    // A quiet position: an evaluation, and lines beyond the nominal depth.
    let mut rows = vec!["..............."; 15];
    rows[6] = "........o......";
    rows[7] = ".......x.......";
    let value: Value = serde_json::from_str(&analyze(&rows, ["--depth", "4"], true)).unwrap();
    assert_eq!(value["win_in"], Value::Null, "{value}");
    assert_eq!(value["depth"], 4, "{value}");
    assert!(count(&value, "selective_depth") >= 4, "{value}");
}

#[test]
fn analyze_reports_the_means_of_mcts() {
    let value = json(&[
        "analyze",
        "--rules",
        "3,3,3",
        "--position",
        "x../.o./...",
        "--engine",
        "mcts:iterations=2000,seed=3",
        "--json",
    ]);
    let scores = value["scores"].as_object().unwrap();
    let values = value["values"].as_object().unwrap();
    let keys = |map: &serde_json::Map<String, serde_json::Value>| map.keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(values), keys(scores));
    assert!(values.values().all(|v| (0.0..=1.0).contains(&v.as_f64().unwrap())), "{value}");
    let best = value["best_move"].as_str().unwrap();
    assert_eq!(values[best].as_f64(), value["value"].as_f64());
}

#[test]
fn bad_input_is_a_clear_error() {
    let cases: [(&[&str], &str); 14] = [
        (&["perft", "--rules", "3,3,4"], "k must be between 1 and 3"),
        (&["perft", "--rules", "40,3,3"], "width must be between 1 and 32"),
        (&["perft", "--rules", "15,15,5"], "give --depth"),
        (&["match", "--a", "randm", "--b", "random"], "unknown engine \"randm\"; valid engines: random"),
        (&["match", "--a", "random", "--b", "random", "--sprt", "10,0"], "elo0 < elo1"),
        (&["match", "--a", "random", "--b", "random", "--sprt", "5"], "two Elo bounds"),
        (&["match", "--a", "random", "--b", "random", "--openings", "random:9"], "below the board's 9 cells"),
        (
            &["match", "--a", "random", "--b", "random", "--openings", "/no/such/file"],
            "/no/such/file cannot be read",
        ),
        (&["tournament", "--engines", "random"], "--engines"),
        (
            &["analyze", "--rules", "3,3,3", "--position", "xo./.x/...", "--engine", "random"],
            "row 2 from the top has 2 cells",
        ),
        (
            &["analyze", "--rules", "3,3,3", "--position", "xoo/.x./..x", "--engine", "random"],
            "already over (X wins)",
        ),
        (&["playouts", "--threads", "0"], "--threads must be between 1 and 1024, got 0"),
        (&["playouts", "--seconds", "1e300"], "--seconds must be a positive number of seconds"),
        (&["playouts", "--seconds=-1"], "--seconds must be a positive number of seconds"),
    ];
    for (args, message) in cases {
        let output = bench(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn eval_measures_both_pattern_families() {
    for family in ["classic", "ternary"] {
        let value = json(&["eval", "--family", family, "--seconds", "0.02", "--positions", "2", "--json"]);
        for key in ["evals_per_second", "updates_per_second", "fresh_evals_per_second"] {
            assert!(value[key].as_f64().is_some_and(|rate| rate > 0.0), "{key} in {value}");
        }
        assert_eq!(value["family"], family);
    }
    let output = bench(&["eval", "--rules", "12,12,10"]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("k from 2 to 8, got k = 10"), "{message}");
    let output = bench(&["eval", "--rules", "5,5,4", "--plies", "30"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--plies must be below the 25 cells"));
}

#[test]
fn engines_that_cannot_play_the_rules_are_refused_up_front() {
    let output = bench(&["match", "--rules", "12,12,10", "--a", "pattern", "--b", "random", "--games", "2"]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("pattern cannot play 12,12,10: pattern evaluation needs k from 2 to 8"),
        "{message}"
    );
}

#[test]
fn solve_proves_small_games() {
    let value = json(&["solve", "--rules", "4,4,3", "--table-mib", "8", "--json"]);
    assert_eq!(value["value"], "x_wins");
    assert!(value["best_move"].is_string() && count(&value, "nodes") > 0);
    let value = json(&["solve", "--rules", "3,3,3", "--table-mib", "8", "--json"]);
    assert_eq!(value["value"], "draw");
    // From a position: X to move wins at once.
    let value =
        json(&["solve", "--rules", "3,3,3", "--position", "xx./oo./...", "--table-mib", "8", "--json"]);
    assert_eq!((value["value"].as_str(), value["best_move"].as_str()), (Some("x_wins"), Some("c3")));
    let output = bench(&["solve", "--rules", "15,15,5"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("at most 64 cells"));
}

#[test]
fn search_reports_nodes_per_second() {
    let value =
        json(&["search", "--rules", "9,9,5", "--depth", "2", "--positions", "2", "--plies", "6", "--json"]);
    assert!(value["nodes_per_second"].as_f64().is_some_and(|rate| rate > 0.0));
    assert!(count(&value, "nodes") > 0);
    assert!(value.get("vcf").is_none(), "the threat searches alone only with --vcf");
    // With --vcf, each threat search's outcomes add up to the positions.
    let value = json(&[
        "search",
        "--rules",
        "9,9,5",
        "--depth",
        "2",
        "--positions",
        "3",
        "--plies",
        "6",
        "--vcf",
        "--json",
    ]);
    for search in ["vcf", "vct"] {
        let solved = &value[search];
        let outcomes: u64 = ["won", "no_win", "undecided"].iter().map(|key| count(solved, key)).sum();
        assert_eq!(outcomes, 3, "{search}: {solved}");
    }
    // With --stability, the score's swing from one depth to the next:
    // steps of depths 2 to 4 (two a position at most).
    let value = json(&[
        "search",
        "--rules",
        "9,9,5",
        "--depth",
        "4",
        "--positions",
        "3",
        "--plies",
        "6",
        "--stability",
        "--json",
    ]);
    let (swing, steps) = (value["score_swing"][0].as_f64(), value["score_swing"][1].as_u64());
    assert!(swing.is_some_and(|swing| swing >= 0.0) && steps.is_some_and(|steps| steps <= 6), "{value}");
    let output = bench(&["search", "--rules", "9,9,5"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("give --depth D, --ms T or --nodes N"));
    // To a node limit: each search stops there (unlimited, a search
    // would think its default second and visit far more).
    let value = json(&[
        "search",
        "--rules",
        "9,9,5",
        "--nodes",
        "2000",
        "--positions",
        "2",
        "--plies",
        "6",
        "--json",
    ]);
    assert!((1..=4_000).contains(&count(&value, "nodes")), "{value}");
    let output = bench(&["search", "--rules", "9,9,5", "--nodes", "0"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--nodes must be at least 1"));
    let output = bench(&["search", "--rules", "9,9,5", "--ms", "10", "--stability"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--depth"), "--stability needs --depth");
}

#[test]
fn mcts_reports_iterations_per_second() {
    let value = json(&["mcts", "--rules", "3,3,3", "--iterations", "2000", "--json"]);
    assert!(value["iterations_per_second"].as_f64().is_some_and(|rate| rate > 0.0));
    assert!(value["middle_game_iterations_per_second"].as_f64().is_some_and(|rate| rate > 0.0));
    assert_eq!(count(&value, "repeat"), 5);
    assert!(count(&value, "nodes") > 0);
    assert!(value.get("speedup").is_none() && value.get("one_thread_iterations_per_second").is_none());
    // Two trees: the tree size is both trees', not 0.
    let value = json(&[
        "mcts",
        "--rules",
        "3,3,3",
        "--iterations",
        "2000",
        "--threads",
        "2",
        "--repeat",
        "3",
        "--speedup",
        "--json",
    ]);
    assert_eq!(count(&value, "repeat"), 3);
    assert!(count(&value, "nodes") > 0, "{value}");
    assert!(value["one_thread_iterations_per_second"].as_f64().is_some_and(|rate| rate > 0.0));
    assert!(value["speedup"].as_f64().is_some_and(|ratio| ratio > 0.0), "{value}");
    let value =
        json(&["mcts", "--rules", "3,3,3", "--iterations", "2000", "--cold", "--repeat", "1", "--json"]);
    assert_eq!(value["cold"], serde_json::Value::Bool(true));
    let output = bench(&["mcts", "--iterations", "0"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--iterations must be from 1"));
    let output = bench(&["mcts", "--repeat", "0"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--repeat must be from 1"));
    let output = bench(&["mcts", "--speedup"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--speedup compares with one thread"));
}

#[test]
fn train_measures_every_learner() {
    for learner in ["matrix", "montecarlo", "td"] {
        let value = json(&["train", "--learner", learner, "--games", "20000", "--json"]);
        assert_eq!(count(&value, "games"), 20_000);
        assert!(count(&value, "entries") > 100, "{value}");
        assert!(value["games_per_second"].as_f64().unwrap() > 0.0);
    }
    let output = bench(&["train", "--learner", "matrix", "--threads", "2"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("one thread"));
    let output = bench(&["train", "--learner", "td", "--rules", "15,15,5"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("at most 40 cells"));
}

/// Runs bench with `args`, killing it if it has not finished in 30 s.
fn bench_within_30s(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the bench binary runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("bench {args:?} hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn one_in_a_row_neither_hangs_nor_panics() {
    // The first move wins: no middle game exists to measure.
    for rules in ["3,3,1", "5,5,1,exact", "32,32,1", "32,1,1"] {
        let output = bench_within_30s(&["mcts", "--rules", rules, "--iterations", "1", "--repeat", "1"]);
        assert!(output.status.success(), "{rules}: {output:?}");
    }
    let output = bench_within_30s(&["search", "--rules", "32,1,1", "--depth", "1", "--positions", "2"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("ask for fewer --plies"), "{output:?}");
}

#[test]
fn errors_quote_huge_inputs_briefly() {
    let long = "x".repeat(100_000);
    for args in [
        ["analyze", "--rules", "15,15,5", "--position", &long, "--engine", "random"],
        ["analyze", "--rules", &long, "--position", "x", "--engine", "random"],
        ["analyze", "--rules", "3,3,3", "--position", "...", "--engine", &long],
    ] {
        let output = bench(&args);
        assert!(!output.status.success());
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.len() < 1_000 && error.contains("xxx…"), "{error}");
    }
    // A weights file that never ends is refused, not read.
    if std::path::Path::new("/dev/zero").exists() {
        let output = bench(&[
            "analyze",
            "--rules",
            "3,3,3",
            "--position",
            "...",
            "--engine",
            "pattern:weights=/dev/zero",
        ]);
        assert!(String::from_utf8_lossy(&output.stderr).contains("larger than 64 MiB"), "{output:?}");
    }
}

#[test]
fn the_tic_tac_toe_tree_has_its_described_layers() {
    let value = json(&["tree", "--rules", "3,3,3", "--json"]);
    let layers: Vec<u64> =
        value["layer_sizes"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    assert_eq!(layers, [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]);
    assert_eq!(count(&value, "nodes"), 765);
    let output = bench(&["tree", "--rules", "15,15,5"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("at most 64 cells"), "{output:?}");
}

#[test]
fn a_learning_engine_plays_its_games_in_order_on_one_thread() {
    let table = std::env::temp_dir().join(format!("mnk-bench-learning-{}.table", std::process::id()));
    let _ = std::fs::remove_file(&table);
    let learner = format!("matrix:learn=true,games=0,table={}", table.display());
    let output =
        bench(&["match", "--a", &learner, "--b", "random", "--games", "40", "--threads", "2", "--json"]);
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "learns from every game, so the games are played one after another on one thread (not 2)"
        ),
        "{stderr}"
    );
    assert!(table.exists(), "the table is saved");
    // The same run again from a blank table plays the same games: in order.
    let first = String::from_utf8_lossy(&output.stdout).into_owned();
    std::fs::remove_file(&table).unwrap();
    let again =
        bench(&["match", "--a", &learner, "--b", "random", "--games", "40", "--threads", "2", "--json"]);
    let results = |text: &str| {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        value["pairings"][0]["results"].clone()
    };
    assert_eq!(results(&first), results(&String::from_utf8_lossy(&again.stdout)));
    let _ = std::fs::remove_file(&table);
}

#[test]
fn output_to_a_closed_pipe_ends_quietly() {
    // The pipe's reading end is closed before bench writes a byte.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["perft", "--rules", "3,3,3"])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn renju_and_caro_play_in_matches_and_are_refused_where_only_plain_rules_are_measured() {
    let value = json(&[
        "match",
        "--rules",
        "9,9,5,renju",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "4",
        "--json",
    ]);
    assert_eq!(value["pairings"][0]["forfeits"].as_u64(), Some(0), "{value}");
    let output = bench(&["eval", "--rules", "caro"]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("freestyle and exactly-k rules only"), "{error}");
    // Playouts and perft follow the rule set.
    for args in [
        &["playouts", "--rules", "renju", "--seconds", "0.2"][..],
        &["perft", "--rules", "7,7,5,caro", "--depth", "2"],
    ] {
        let output = bench(args);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
    // The search by threats measures renju and caro, not caro-freestyle.
    for rules in ["renju", "15,15,5,caro"] {
        let output =
            bench(&["search", "--rules", rules, "--depth", "2", "--positions", "2", "--eval", "threat"]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let output = bench(&["search", "--rules", "15,15,5,caro-freestyle", "--depth", "2"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("do not know caro-freestyle"));
    let output = bench(&["match", "--rules", "renju", "--a", "perfect", "--b", "random", "--games", "2"]);
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("perfect cannot play 15,15,5,renju") && error.contains("at most 20 cells"),
        "{error}"
    );
}

#[test]
fn positions_no_game_reaches_and_finished_games_are_refused_where_positions_are_read() {
    let rows = |first: &str, second: &str| {
        [first, second].into_iter().chain(["..............."; 13]).collect::<Vec<_>>().join("/")
    };
    let six = rows("xxxxxx.........", "o.o.o.o.o......");
    let output =
        bench(&["analyze", "--rules", "renju", "--position", &six, "--engine", "alphabeta", "--depth", "2"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("renju forbids"));
    let finished = rows("xxxxx..........", "oooo...........");
    let file = std::env::temp_dir().join(format!("bench-finished-{}.txt", std::process::id()));
    for (rules, line, says) in [("15,15,5", &finished, "the game is over"), ("renju", &six, "renju forbids")]
    {
        std::fs::write(&file, format!("{line}\n")).unwrap();
        let output =
            bench(&["search", "--rules", rules, "--depth", "2", "--positions-in", file.to_str().unwrap()]);
        assert!(!output.status.success(), "{rules}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{rules}: {stderr}");
    }
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn search_counts_the_positions_it_proves_won_and_lost() {
    // 15 × 15 one-line positions from (row from the top, column, mark).
    let board = |stones: &[(usize, usize, char)]| {
        let mut rows = vec![vec!['.'; 15]; 15];
        for &(row, column, mark) in stones {
            rows[row][column] = mark;
        }
        rows.iter().map(|row| row.iter().collect::<String>()).collect::<Vec<_>>().join("/")
    };
    // X to move with an open three: an open four next, won.
    let won = board(&[(7, 6, 'x'), (7, 7, 'x'), (7, 8, 'x'), (0, 0, 'o'), (0, 14, 'o'), (14, 0, 'o')]);
    // X to move against O's open four, with no four of its own: lost.
    let lost = board(&[
        (5, 5, 'o'),
        (5, 6, 'o'),
        (5, 7, 'o'),
        (5, 8, 'o'),
        (0, 0, 'x'),
        (0, 14, 'x'),
        (14, 0, 'x'),
        (14, 14, 'x'),
    ]);
    let file = std::env::temp_dir().join(format!("bench-proven-{}.txt", std::process::id()));
    std::fs::write(&file, format!("# a win and a loss\n{won}\n{lost}\n")).unwrap();
    let value =
        json(&["search", "--depth", "4", "--positions-in", file.to_str().unwrap(), "--vcf", "--json"]);
    assert_eq!((count(&value, "proven_won"), count(&value, "proven_lost")), (1, 1), "{value}");
    // To a node limit (tactics measured alike on any machine): the same
    // two.
    let value =
        json(&["search", "--nodes", "5000", "--positions-in", file.to_str().unwrap(), "--vcf", "--json"]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!((count(&value, "proven_won"), count(&value, "proven_lost")), (1, 1), "{value}");
}

#[test]
fn db_puts_queries_and_counts_records() {
    let path = std::env::temp_dir().join(format!("bench-db-{}.mnkdb", std::process::id()));
    let path_text = path.to_str().unwrap();
    let out = bench(&["db", "put", path_text, "--moves", "h8 i9", "--label", "win", "--comment", "seen"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        bench(&["db", "put", path_text, "--moves", "h8 i9 j10", "--value", "120", "--depth", "9"])
            .status
            .success()
    );
    // One move on from h8: i9 and its three mirror images in h8's symmetry.
    let query = json(&["db", "query", path_text, "--moves", "h8", "--json"]);
    let cells: Vec<&str> =
        query["children"].as_array().unwrap().iter().map(|c| c["cell"].as_str().unwrap()).collect();
    assert_eq!(cells.len(), 4, "{query}");
    assert!(cells.contains(&"i9") && query["children"][0]["label"] == "win", "{query}");
    let query = json(&["db", "query", path_text, "--moves", "h8 i9", "--json"]);
    assert_eq!(query["position"]["comment"], "seen");
    assert_eq!(query["children"][0]["value"], 120);
    let stats = json(&["db", "stats", path_text, "--json"]);
    assert_eq!(stats["records"], 2);
    // Another database's records added: one new, one deeper.
    let other = std::env::temp_dir().join(format!("bench-db-other-{}.mnkdb", std::process::id()));
    let other_text = other.to_str().unwrap();
    assert!(bench(&["db", "put", other_text, "--moves", "a1", "--label", "draw"]).status.success());
    assert!(
        bench(&["db", "put", other_text, "--moves", "h8 i9 j10", "--value", "80", "--depth", "12"])
            .status
            .success()
    );
    let out = bench(&["db", "merge", path_text, other_text]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 records added, 1 changed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let query = json(&["db", "query", path_text, "--moves", "h8 i9", "--json"]);
    assert_eq!(query["children"][0]["value"], 80);
    // A query under other rules than the file's records finds nothing
    // and says which rules the file holds.
    let out = bench(&["db", "query", path_text, "--rules", "renju", "--moves", "h8 i9"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("no record under 15,15,5,renju; the file holds records of 15,15,5"), "{said}");
    assert!(
        !bench(&["db", "merge", path_text, path_text]).status.success(),
        "a database is not merged into itself"
    );
    // Bad input: a wrong label, an illegal move, a file that is not a database.
    for (args, said) in [
        (vec!["db", "put", path_text, "--label", "maybe"], "is not a label"),
        (vec!["db", "put", path_text, "--moves", "h8 h8"], "already taken"),
        (vec!["db", "stats", "Cargo.toml"], "not an mnk analysis database"),
    ] {
        let out = bench(&args);
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(said),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for file in [&path, &other] {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", file.display()));
        }
    }
}

#[test]
fn db_imports_of_an_endless_file_are_refused_at_the_limit() {
    let path = std::env::temp_dir().join(format!("bench-db-endless-{}.mnkdb", std::process::id()));
    let path_text = path.to_str().unwrap();
    for command in ["import-lib", "import-yxdb", "import-csv"] {
        let out = bench(&["db", command, path_text, "/dev/zero"]);
        assert!(!out.status.success(), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("larger than 256 MiB") && stderr.contains("MNK_MAX_FILE_MIB"),
            "{command}: {stderr}"
        );
    }
    for end in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{end}", path.display()));
    }
}

#[test]
fn db_files_go_out_and_come_back() {
    let path = std::env::temp_dir().join(format!("bench-db-files-{}.mnkdb", std::process::id()));
    let path_text = path.to_str().unwrap();
    assert!(bench(&["db", "put", path_text, "--moves", "h8 i9", "--label", "win"]).status.success());
    // Out as a .lib, a Yixin file and CSV, each read back into a new
    // database the same; a branch split off. (A .lib holds what moves
    // through records reach: h8 gets an empty record, the way to h8 i9.)
    assert!(bench(&["db", "put", path_text, "--moves", "h8"]).status.success());
    let temp = |name: &str| std::env::temp_dir().join(format!("bench-db-{}-{name}", std::process::id()));
    let (lib, yxdb, csv, copy, branch) =
        (temp("out.lib"), temp("out.yxdb"), temp("out.csv"), temp("copy.mnkdb"), temp("branch.mnkdb"));
    let text = |path: &std::path::PathBuf| path.to_str().unwrap().to_owned();
    for (out, back) in
        [("export-lib", "import-lib"), ("export-yxdb", "import-yxdb"), ("export-csv", "import-csv")]
    {
        let file = match out {
            "export-lib" => &lib,
            "export-yxdb" => &yxdb,
            _ => &csv,
        };
        let mut args = vec!["db", out, path_text, file.to_str().unwrap()];
        if out == "export-lib" {
            args.extend(["--rules", "15,15,5"]);
        }
        let written = bench(&args);
        assert!(written.status.success(), "{out}: {}", String::from_utf8_lossy(&written.stderr));
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", copy.display()));
        }
        let mut args = vec!["db".to_owned(), back.to_owned(), text(&copy), text(file)];
        if back == "import-lib" {
            args.extend(["--rules".to_owned(), "15,15,5".to_owned()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let read = bench(&args);
        assert!(read.status.success(), "{back}: {}", String::from_utf8_lossy(&read.stderr));
        let query = json(&["db", "query", copy.to_str().unwrap(), "--moves", "h8 i9", "--json"]);
        assert_eq!(query["position"]["label"], "win", "{back}: {query}");
    }
    let out = bench(&["db", "split", path_text, branch.to_str().unwrap(), "--moves", "h8 i9"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("2 records copied"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for out in ["export-lib", "export-yxdb", "export-csv"] {
        let refused = bench(&["db", out, path_text, path_text]);
        assert!(String::from_utf8_lossy(&refused.stderr).contains("is the database itself"), "{out}");
    }
    let broken = bench(&["db", "import-lib", copy.to_str().unwrap(), "Cargo.toml"]);
    assert!(
        String::from_utf8_lossy(&broken.stderr).contains("not a RenLib"),
        "{}",
        String::from_utf8_lossy(&broken.stderr)
    );
    for file in [&path, &copy, &branch] {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", file.display()));
        }
    }
    for file in [&lib, &yxdb, &csv] {
        let _ = std::fs::remove_file(file);
    }
}
