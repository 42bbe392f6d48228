//! Fuzzing every parser and loader: arbitrary bytes, and near misses built
//! from the real grammar, must give a value or a typed error — never a
//! panic — and values that print must read back the same.
//!
//! `cargo xtask ci` runs each target with proptest's default case count
//! (or `PROPTEST_CASES`); `cargo xtask fuzz --cases N` runs them longer.

use std::io::Cursor;
use std::path::PathBuf;
use std::time::Duration;

use board::{Cell, Position, Rules};
use play::{Agent, RandomAgent};
use proptest::prelude::*;

/// A scratch file for loaders that read a path.
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("mnk-fuzz-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Text that is mostly the grammar's own characters, with some of anything.
fn near(pattern: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![4 => pattern, 1 => any::<String>()]
}

proptest! {
    #[test]
    fn rules_read_or_refuse(text in near("[0-9]{0,3}(,[0-9]{0,3}){0,3}(,(exact|freestyle|x))?|tictactoe|gomoku1[05]|five8x8")) {
        if let Ok(rules) = text.parse::<Rules>() {
            prop_assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        }
    }

    #[test]
    fn coordinates_read_or_refuse(text in near("[a-zA-Z]{0,3}[0-9]{0,3}|[0-9]{1,2},[0-9]{1,2}"), size in 1_u32..=32) {
        let rules = Rules::new(size, size, 1, board::RuleSet::Freestyle).unwrap();
        if let Ok(cell) = rules.parse_cell(&text) {
            prop_assert!(rules.contains(cell));
            prop_assert_eq!(rules.parse_cell(&cell.name(&rules).to_string()).unwrap(), cell);
        }
        let _ = gomocup::protocol::parse_cell(&text);
    }

    #[test]
    fn one_line_positions_read_or_refuse(text in near("[xo.]{0,7}(/[xo.]{0,7}){0,7}"), k in 1_u32..=5, renju in any::<bool>()) {
        // Renju (k = 5 only): black overlines are refused as unreachable.
        let rule_set = if renju && k == 5 { board::RuleSet::Renju } else { board::RuleSet::Freestyle };
        let rules = Rules::new(7, 7, k, rule_set).unwrap();
        if let Ok(pos) = Position::from_one_line(rules, &text) {
            prop_assert_eq!(Position::from_one_line(rules, &pos.to_one_line()).unwrap().to_one_line(), pos.to_one_line());
        }
        let _ = Position::from_moves(rules, &text);
    }

    #[test]
    fn engine_specs_read_or_refuse(text in near("(alphabeta|mcts|uct|random|pattern|minimax|tree|perfect|matrix|td|montecarlo|external)(:[a-z_]{1,10}=[a-z0-9./-]{0,8}(,[a-z_]{1,10}=[a-z0-9.-]{0,6}){0,3})?")) {
        if let Ok(spec) = text.parse::<roster::AgentSpec>() {
            // What reads, reads again the same; it builds only for boards it can play.
            let again: roster::AgentSpec = spec.text().parse().unwrap();
            prop_assert_eq!(again.text(), spec.text());
            let _ = spec.check_rules(&Rules::tic_tac_toe());
        }
    }

    #[test]
    fn weights_read_or_refuse(bytes in prop::collection::vec(any::<u8>(), 0..600), text in near("\\{\"format\": ?[0-9], ?\"family\": ?\"(classic|ternary|threat)\", ?\"weights\": ?\\[[0-9, -]{0,40}\\]\\}|\\[[0-9, -]{0,60}\\]")) {
        for family in [pattern_eval::Family::Classic, pattern_eval::Family::Ternary] {
            let _ = pattern_eval::Weights::from_json(family, None, &text);
        }
        let _ = pattern_eval::Weights::from_bincode(&bytes);
        let _ = pattern_eval::ThreatWeights::from_json(&text);
        let _ = pattern_eval::ThreatWeights::from_bincode(&bytes);
    }

    #[test]
    fn tables_load_or_refuse(bytes in prop::collection::vec(any::<u8>(), 0..400), header in any::<bool>()) {
        // Half the cases start like a real table file.
        let mut file = if header { b"mnk-tabl\x02".to_vec() } else { Vec::new() };
        file.extend(bytes);
        let path = scratch("table", &file);
        let _ = tabular_rl::Table::load(&path);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn records_files_read_or_refuse(lines in prop::collection::vec(near("\\{\"game\": ?[0-9]{1,3}(, ?\"[a-z]{1,8}\": ?[0-9\\[\\]\",]{0,12}){0,4}\\}"), 0..5)) {
        let path = scratch("records", (lines.join("\n") + "\n").as_bytes());
        let _ = arena::read_records(&path);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn openings_read_or_refuse(text in near("([a-o][0-9]{1,2}( [a-o][0-9]{1,2}){0,3}|# [a-z ]{0,10}|[0-9]{1,2},[0-9]{1,2})(\n([a-o][0-9]{1,2} ?){0,3}){0,4}")) {
        let _ = arena::Openings::parse(&text, Rules::gomoku15());
    }

    #[test]
    fn rif_opening_records_check_or_refuse(
        steps in prop::collection::vec(swap_step(), 0..13),
        soosorv in any::<bool>(),
        first_is_black in any::<bool>(),
    ) {
        // Any steps, in any order: the check answers, never panics, and a
        // record reads back as written.
        use board::{Outcome, Side};
        use play::{GameRecord, OpeningRule, SwapRecord};
        let rule = if soosorv { OpeningRule::Soosorv8 } else { OpeningRule::Taraguchi10 };
        let opener = if first_is_black { Side::X } else { Side::O };
        let record = GameRecord {
            rules: Rules::renju(),
            players: ["a".to_owned(), "b".to_owned()],
            opening: play::opening_rules::rif::stones(&steps),
            moves: Vec::new(),
            outcome: Outcome::Win(Side::O),
            forfeit: Some(play::Forfeit { side: Side::X, reason: "fuzz".to_owned(), unsupported: false }),
            swap: Some(SwapRecord { rule, opener, steps }),
            learning_errors: Vec::new(),
        };
        // What the check accepts holds what the live game allows.
        if record.check().is_ok() {
            for step in &record.swap.as_ref().unwrap().steps {
                match step {
                    play::SwapStep::Declared { fifths, .. } => prop_assert!((1..=8).contains(fifths)),
                    play::SwapStep::Offered(offered) => {
                        let mut cells = offered.clone();
                        cells.sort_unstable();
                        cells.dedup();
                        prop_assert_eq!(cells.len(), offered.len());
                    }
                    _ => {}
                }
            }
        }
        let _ = play::sgf::SgfGame::of_record(&record).to_sgf();
        let text = serde_json::to_string(&record).unwrap();
        prop_assert_eq!(serde_json::from_str::<GameRecord>(&text).unwrap(), record);
    }

    #[test]
    fn opening_names_read_or_refuse(text in near("(renju26|RENJU26|none|random:[0-9]{1,3}|[0-9]{1,2}[DIdi]|Kagetsu|suisei|[A-Z][a-z]{2,8})")) {
        // What a command line or a game's start names: the standard renju
        // openings by code or name, or the arena's kinds of openings (a
        // file name that is not there is an error, not a panic).
        if let Some(opening) = board::renju::openings::standard_opening(&text) {
            prop_assert!(opening.moves(&Rules::renju()).is_some());
        }
        for rules in [Rules::renju(), Rules::tic_tac_toe()] {
            let _ = arena::Openings::from_arg(&text, rules);
        }
    }

    #[test]
    fn saved_games_load_or_refuse(text in near("\\{\"rules\": ?\"[0-9,]{0,9}\", ?\"x\": ?\"(human|random|alphabeta|[a-z]{0,5})\", ?\"o\": ?\"(human|random)\", ?(\"level\": ?\"[a-z]{0,9}\", ?)?\"moves\": ?\\[(\"[a-o][0-9]{1,2}\",?){0,4}\\]\\}")) {
        let path = scratch("game.json", text.as_bytes());
        if let Ok(file) = tui::record::GameFile::load(&path) {
            let _ = file.setup(Duration::from_millis(10));
        }
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn saved_games_with_opening_steps_load_or_refuse(
        steps in prop::collection::vec(swap_step(), 0..12),
        rule in prop_oneof![Just("swap1"), Just("swap2"), Just("soosorv8"), Just("taraguchi10")],
        opener in any::<bool>(),
        moves in prop::collection::vec((0_u8..15, 0_u8..15), 0..8),
        under_way in any::<bool>(),
        pending in prop::collection::vec((0_u8..15, 0_u8..15), 0..4),
        putting_two in any::<bool>(),
    ) {
        // Any steps beside any moves, settled or under way with any stones
        // given toward the next step: a file is read whole, or refused
        // saying why; what is read is checked, and a game goes on from it.
        let rules = Rules::renju();
        let record = play::SwapRecord {
            rule: rule.parse().unwrap(),
            opener: if opener { board::Side::X } else { board::Side::O },
            steps,
        };
        let file = tui::record::GameFile {
            rules: "renju".to_owned(),
            x: "human".to_owned(),
            o: "human".to_owned(),
            clock: None,
            result: None,
            level: None,
            opening: Some(rule.to_owned()),
            moves: moves.iter().map(|&(x, y)| Cell::new(x, y).name(&rules).to_string()).collect(),
            swap: (!under_way).then(|| record.clone()),
            under_way: under_way.then(|| tui::record::UnderWay {
                steps: record.steps.clone(),
                pending: pending.iter().map(|&(x, y)| Cell::new(x, y)).collect(),
                putting_two,
            }),
        };
        let path = scratch("opening.json", serde_json::to_string(&file).unwrap().as_bytes());
        if let Ok(loaded) = tui::record::GameFile::load(&path).and_then(|file| file.setup(Duration::from_millis(10))) {
            let steps = match (&loaded.swap, &loaded.under_way) {
                (Some(swap), None) => swap.steps.clone(),
                (None, Some(under_way)) => under_way.steps.clone(),
                _ => Vec::new(),
            };
            prop_assert!(loaded.moves.starts_with(&play::opening_rules::rif::stones(&steps)));
            let moves = loaded.moves.clone();
            let resumed = loaded.under_way.is_some();
            let app = tui::App::loaded(loaded);
            prop_assert_eq!(app.pos().moves(), &moves[..]);
            prop_assert_eq!(app.swap_phase().is_some(), resumed);
        }
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn code_weights_read_or_refuse(bytes in prop::collection::vec(any::<u8>(), 0..600), text in near("\\{\"format\": ?[0-9], ?\"family\": ?\"codes\", ?\"to_move\": ?\\{(\"[a-z+ ]{0,12}\": ?-?[0-9]{1,7},?){0,3}\\}, ?\"waiting\": ?\\{(\"[a-z+ ]{0,12}\": ?-?[0-9]{1,7},?){0,3}\\}(, ?\"masks\": ?\\{(\"mover [a-z+ -]{0,12}, waiting [a-z+ -]{0,8}\": ?-?[0-9]{1,7},?){0,3}\\})?\\}")) {
        let _ = pattern_eval::CodeWeights::from_json(&text);
        let _ = pattern_eval::CodeWeights::from_bincode(&bytes);
    }

    #[test]
    fn sgf_collections_read_or_refuse(text in near("(\\(;(GM\\[[0-9]\\]|SZ\\[[0-9]{1,2}(:[0-9]{1,2})?\\]|RU\\[[0-9]\\]|MNK\\[[0-9,a-z]{0,12}\\]|P[BW]\\[[a-z:=]{0,10}\\]|C\\[[^\\]]{0,10}\\]|A[BW](\\[[a-s]{2}\\])+|RE\\[[BW0]\\+?[RT]?\\])*(;[BW]\\[[a-t]{0,2}\\]){0,8}\\)){1,3}")) {
        if let Ok(games) = play::sgf::parse(&text) {
            for game in games {
                let _ = game.position(None);
            }
        }
    }

    #[test]
    fn run_headers_read_or_refuse(count in 0_u64..5, games in prop_oneof![Just(u64::MAX), Just(1_000_000_000_u64), 0_u64..40], index in 0_u64..6, tail in near("\\{\"game\": ?[0-9]{1,2}\\}")) {
        // A records file whose header's counts may lie about what follows.
        let header = format!(
            "{{\"header\":{{\"run\":\"r\",\"rules\":{{\"width\":3,\"height\":3,\"k\":3,\"overline\":\"freestyle\"}},\"format\":\"match\",\"games\":{games},\"seed\":0,\"entrants\":[\"random\",\"random\"],\"sprt\":null,\"shard\":{{\"index\":{index},\"count\":{count}}}}}}}"
        );
        let path = scratch("run.jsonl", format!("{header}\n{tail}\n").as_bytes());
        let _ = arena::read_run(&path);
        let _ = arena::merge(std::slice::from_ref(&path));
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn self_play_data_reads_or_refuses(bytes in prop::collection::vec(any::<u8>(), 0..600), magic in any::<bool>()) {
        // Half the cases start like a real self-play file.
        let mut file = if magic { trainer::selfplay::MAGIC.to_vec() } else { Vec::new() };
        file.extend(bytes);
        let path = scratch("selfplay", &file);
        let _ = trainer::selfplay::DataFile::read(&path);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn tune_checkpoints_read_or_refuse(text in near("\\{\"family\": ?\"(threat|codes)\", ?\"k\": ?[0-9.e-]{1,6}, ?\"weights\": ?\\[[0-9., e-]{0,30}\\], ?\"epoch\": ?[0-9]{1,3}\\}")) {
        if let Ok(tuner) = serde_json::from_str::<trainer::texel::Tuner>(&text) {
            let _ = tuner.check();
        }
    }

    #[test]
    fn protocol_lines_read_or_refuse(line in near("(START|RECTSTART|BEGIN|TURN|BOARD|SWAP2BOARD|DONE|INFO|TAKEBACK|RESTART|ABOUT|YXSTOP|END|YXBOARD|YXNBEST|YXBLOCK|YXBLOCKUNDO|YXBLOCKRESET|YXSEARCHDEFEND|YXBALANCEONE|YXBALANCETWO|YXSETDATABASE|YXQUERYDATABASEALL|YXQUERYDATABASEONE|YXEDITTVDDATABASE|YXEDITTEXTDATABASE|YXEDITLABELDATABASE|YXDELETEDATABASEALL|YXDBTOLIB|YXDBSPLIT)( [0-9a-z_,\"-]{0,12})?|[0-9]{1,2},[0-9]{1,2},[0-9]"), in_board in any::<bool>()) {
        let _ = gomocup::protocol::parse(&line, in_board);
    }
}

/// A step of a swap opening, as a record may hold it (any kind, any cells).
fn swap_step() -> impl Strategy<Value = play::SwapStep> {
    use play::SwapStep;
    let cell = || (0_u8..15, 0_u8..15).prop_map(|(x, y)| Cell::new(x, y));
    prop_oneof![
        prop::collection::vec(cell(), 1..4).prop_map(SwapStep::Put),
        any::<bool>().prop_map(SwapStep::Swap),
        (cell(), 0_u8..12).prop_map(|(stone, fifths)| SwapStep::Declared { stone, fifths }),
        any::<bool>().prop_map(SwapStep::ChoseOffer),
        prop::collection::vec(cell(), 0..11).prop_map(SwapStep::Offered),
        cell().prop_map(SwapStep::Picked),
        Just(SwapStep::Took(board::Side::X)),
    ]
}

/// The commands a manager might send, some of them wrong.
fn command() -> impl Strategy<Value = String> {
    let n = || 0_u32..22;
    prop_oneof![
        n().prop_map(|size| format!("START {size}")),
        (n(), n()).prop_map(|(w, h)| format!("RECTSTART {w},{h}")),
        Just("BEGIN".to_owned()),
        (n(), n()).prop_map(|(x, y)| format!("TURN {x},{y}")),
        Just("BOARD".to_owned()),
        (n(), n(), 0_u32..4).prop_map(|(x, y, who)| format!("{x},{y},{who}")),
        Just("DONE".to_owned()),
        Just("SWAP2BOARD".to_owned()),
        (n(), n()).prop_map(|(x, y)| format!("{x},{y}")),
        (n(), n()).prop_map(|(x, y)| format!("TAKEBACK {x},{y}")),
        Just("RESTART".to_owned()),
        Just("ABOUT".to_owned()),
        (
            prop_oneof![
                Just("timeout_turn"),
                Just("rule"),
                Just("max_memory"),
                Just("time_left"),
                Just("thread_num"),
                Just("hash_size"),
                Just("max_node"),
                Just("show_detail"),
                Just("caution_factor"),
                Just("pondering"),
            ],
            -2_i32..100
        )
            .prop_map(|(key, value)| format!("INFO {key} {value}")),
        // What Yixin-Board sends: positions without a move, analyses,
        // blocks (left open or not), balance and defence searches, stops
        // in the middle of any of them, hostile arguments.
        prop_oneof![
            Just("YXBOARD"),
            Just("YXBLOCK"),
            Just("YXBLOCKUNDO"),
            Just("YXBLOCKRESET"),
            Just("YXSEARCHDEFEND"),
            Just("YXHASHCLEAR"),
            Just("YXSHOWINFO"),
            Just("YXSHOWFORBID"),
            Just("YXSTOP"),
        ]
        .prop_map(str::to_owned),
        (prop_oneof![Just("YXNBEST"), Just("YXBALANCEONE"), Just("YXBALANCETWO")], -3000_i64..3000)
            .prop_map(|(command, value)| format!("{command} {value}")),
        prop_oneof![
            Just("YXNBEST"),
            Just("YXBALANCEONE"),
            Just("YXBALANCETWO x"),
            Just("YXNBEST 99999999999")
        ]
        .prop_map(str::to_owned),
        database_command(),
        any::<String>().prop_map(|text| text.replace(['\n', '\r'], " ")),
    ]
}

/// Yixin-Board's database commands, some with hostile arguments; files
/// in the temporary folder.
fn database_command() -> impl Strategy<Value = String> {
    let file = |name: &str| {
        std::env::temp_dir().join(format!("mnk-fuzz-{}-{name}", std::process::id())).display().to_string()
    };
    let (db, lib, csv, other) = (file("brain.db"), file("brain.lib"), file("brain.csv"), file("other.db"));
    prop_oneof![
        Just(format!("YXSETDATABASE {db}")),
        Just(format!("YXDBTOLIB {lib}")),
        Just(format!("YXLIBTODB {lib}")),
        Just(format!("YXDBTOTXT {csv}")),
        Just(format!("YXDBSPLIT {other}")),
        Just(format!("YXDBMERGE {other}")),
        Just(format!("YXLIBTODB {db}")),
        // (`INFO usedatabase 1` alone would open the working directory's file.)
        Just("INFO usedatabase 0".to_owned()),
        Just(format!("YXSETDATABASE {db}\nINFO usedatabase 1")),
        (0_u8..2).prop_map(|on| format!("INFO database_readonly {on}")),
        prop_oneof![
            Just("YXQUERYDATABASEALL"),
            Just("YXQUERYDATABASEALLT"),
            Just("YXQUERYDATABASEONE"),
            Just("YXQUERYDATABASETEXT"),
            Just("YXDELETEDATABASEONE"),
            Just("YXDELETEDATABASEALL"),
            Just("YXDELETEDATABASEALL WLRECURSIVE"),
            Just("YXDELETEDATABASEALL WLINSTEP 3"),
            Just("YXDELETEDATABASEALL NOPE"),
            Just("YXSAVEDATABASE"),
            Just("YXSETDATABASE"),
        ]
        .prop_map(str::to_owned),
        (0_u32..16, -2_i32..130, -40_000_i32..40_000, -3_i32..40).prop_map(
            |(mask, label, value, depth)| format!("YXEDITTVDDATABASE {mask} {label} {value} {depth}")
        ),
        near("YXEDITTEXTDATABASE \"[a-z \\\"]{0,12}\"?"),
        (0_u32..22, 0_u32..22, near("[a-z0-9]{0,12}"))
            .prop_map(|(x, y, text)| format!("YXEDITLABELDATABASE {x},{y} {text}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: ProptestConfig::default().cases / 4, ..ProptestConfig::default() })]

    /// A brain fed a random command stream answers in the protocol's
    /// forms, never panics, and moves only onto the board.
    #[test]
    fn a_brain_survives_any_command_stream(commands in prop::collection::vec(command(), 0..40), searching in any::<bool>()) {
        let input = commands.join("\n") + "\n";
        let mut output = Vec::new();
        let about = gomocup::About {
            name: "fuzz".into(),
            version: "1".into(),
            author: "-".into(),
            country: "-".into(),
            max_threads: None,
        };
        // A real search (briefly) hears the commands that follow it while
        // it thinks: YXSTOP, END and the rest mid-search.
        let make = move |rules: Rules, _: gomocup::Resources| -> Result<Box<dyn Agent>, String> {
            if searching {
                let spec: roster::AgentSpec = "alphabeta:nodes=400,tt_mb=1".parse().map_err(|e: roster::SpecError| e.to_string())?;
                spec.check_rules(&rules).map_err(|error| error.to_string())?;
                Ok(spec.build(7))
            } else {
                Ok(Box::new(RandomAgent::new(7)))
            }
        };
        gomocup::serve(Cursor::new(input), &mut output, about, Box::new(make)).unwrap();
        for answer in String::from_utf8(output).unwrap().lines() {
            let known = ["OK", "ERROR", "UNKNOWN", "MESSAGE", "name=", "SWAP", "FORBID"].iter().any(|start| answer.starts_with(start));
            // A move, or a swap2 opening's stones.
            let moved = answer.split(' ').all(|cell| {
                gomocup::protocol::parse_cell(cell).is_ok_and(|cell: Cell| cell.x() < 32 && cell.y() < 32)
            });
            prop_assert!(known || moved, "{answer:?} after {commands:?}");
        }
    }
}
