//! pbrain-mnk as a real process: driven by `ExternalAgent` through the
//! arena, against itself; and brains that crash or hang lose by forfeit
//! while the other games go on.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use arena::{Entrant, Format, Plan, RunOptions, read_records, run};
use board::Rules;
use play::{Limits, OpeningRule, SwapStep};
use roster::AgentSpec;

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-mnk");

fn entrant(text: &str) -> Entrant {
    let spec: AgentSpec = text.parse().unwrap_or_else(|error| panic!("{text}: {error}"));
    Entrant::new(text.to_owned(), move |seed| spec.build(seed))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mnk-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A shell-script brain: answers START, then `on_move` when asked to move.
fn script(name: &str, on_move: &str) -> PathBuf {
    let path = temp(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE*) {on_move} ;;\n    END*) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path
}

/// The brain playing `spec`, with its input and output.
fn spawn(
    spec: &str,
) -> (std::process::Child, std::process::ChildStdin, BufReader<std::process::ChildStdout>) {
    let mut brain =
        Command::new(BRAIN).arg(spec).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let input = brain.stdin.take().unwrap();
    let output = BufReader::new(brain.stdout.take().unwrap());
    (brain, input, output)
}

#[test]
fn a_session_by_hand() {
    let (mut brain, mut input, mut output) = spawn("random:seed=3");
    {
        let mut ask = |line: &str| {
            writeln!(input, "{line}").unwrap();
            input.flush().unwrap();
            // What the engine thought comes first, in MESSAGE lines.
            loop {
                let mut answer = String::new();
                output.read_line(&mut answer).unwrap();
                if !answer.starts_with("MESSAGE") {
                    return answer.trim_end().to_owned();
                }
            }
        };
        assert!(ask("ABOUT").starts_with("name=\"mnk random:seed=3\""));
        assert_eq!(ask("START 15"), "OK");
        let reply = ask("TURN 7,7");
        assert!(reply.split(',').count() == 2 && reply != "7,7", "{reply}");
        assert!(ask("TURN 7,7").starts_with("ERROR"), "an occupied cell");
        assert_eq!(ask("RESTART"), "OK");
        assert!(ask("BEGIN").contains(','));
    }
    writeln!(input, "END").unwrap();
    drop(input);
    assert!(brain.wait().unwrap().success());
}

#[test]
fn the_brain_says_what_it_thinks() {
    let (mut brain, mut input, mut output) = spawn("alphabeta:depth=2");
    writeln!(input, "START 15\nTURN 7,7").unwrap();
    input.flush().unwrap();
    let mut lines = Vec::new();
    while lines.len() < 3 {
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        lines.push(line.trim_end().to_owned());
    }
    assert_eq!(lines[0], "OK");
    let message = &lines[1];
    assert!(message.starts_with("MESSAGE depth 2-"), "{message}");
    for word in [" ev ", " n ", " n/s ", " tm ", " pv "] {
        assert!(message.contains(word), "{word} in {message}");
    }
    assert!(lines[2].split(',').count() == 2, "{lines:?}");
    writeln!(input, "END").unwrap();
    drop(input);
    assert!(brain.wait().unwrap().success());
}

#[test]
fn help_and_version_answer_without_starting_a_brain() {
    let help = Command::new(BRAIN).arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(text.contains("Gomocup") && text.contains("MNK_ENGINE"), "{text}");
    let version = Command::new(BRAIN).arg("--version").output().unwrap();
    assert!(version.status.success());
    assert!(String::from_utf8(version.stdout).unwrap().starts_with("pbrain-mnk 0."));
}

#[test]
fn a_bad_engine_spec_is_reported_at_once() {
    let output = Command::new(BRAIN).arg("randm").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown engine \"randm\""));
}

#[test]
fn two_brains_play_a_match_through_the_arena() {
    let records = temp("match.jsonl");
    let _ = std::fs::remove_file(&records);
    let a = format!("external:path={BRAIN},args=alphabeta:ms=40");
    let b = format!("external:path={BRAIN},args=pattern");
    let plan = Plan {
        limits: Limits::time(std::time::Duration::from_millis(100)),
        seed: 1,
        ..Plan::new(Rules::gomoku15(), vec![entrant(&a), entrant(&b)], 2)
    };
    let summary = run(&plan, RunOptions { records: Some(&records), ..RunOptions::default() }).unwrap();
    assert_eq!(summary.pairings[0].results.games(), 2);
    for line in read_records(&records).unwrap() {
        assert!(line.record.forfeit.is_none(), "{:?}", line.record.forfeit);
        let end = line.record.replay().unwrap();
        assert_eq!(end.outcome(), Some(line.record.outcome));
        assert!(line.record.players[0].starts_with("external:pbrain-mnk"));
        // What the alphabeta brain said of its moves (its MESSAGE lines)
        // is kept beside them.
        let first = usize::from(line.specs[0] != a);
        let searched: Vec<_> = line.record.moves.iter().skip(first).step_by(2).collect();
        let with_depth = searched.iter().filter(|m| m.thought.is_some_and(|t| t.depth.is_some())).count();
        assert!(with_depth * 2 >= searched.len(), "{with_depth} of {}: {:?}", searched.len(), searched);
    }
}

#[test]
fn brains_on_a_match_clock_are_told_it_and_keep_within_it() {
    let a = format!("external:path={BRAIN},args=alphabeta");
    let b = format!("external:path={BRAIN},args=pattern");
    let plan = Plan {
        clock: Some("6".parse().unwrap()),
        openings: arena::Openings::Random { plies: 3 },
        seed: 2,
        ..Plan::new(Rules::gomoku15(), vec![entrant(&a), entrant(&b)], 2)
    };
    let summary = run(&plan, RunOptions::default()).unwrap();
    assert_eq!(summary.pairings[0].results.games(), 2);
    // Told the match time and what is left, the brain plans its moves
    // from them and never runs out.
    assert_eq!(summary.pairings[0].forfeits, 0, "{summary}");
}

#[test]
fn brains_that_crash_or_hang_forfeit_and_the_rest_goes_on() {
    let crashing = script("crash.sh", "exit 3");
    let sleeping = script("hang.sh", "exec sleep 60");
    let spec = |path: &Path| format!("external:path={}", path.display());
    let plan = Plan {
        format: Format::Gauntlet,
        limits: Limits::time(std::time::Duration::from_millis(100)),
        threads: 2,
        ..Plan::new(
            Rules::gomoku15(),
            vec![entrant("random"), entrant(&spec(&crashing)), entrant(&spec(&sleeping)), entrant("pattern")],
            2,
        )
    };
    let started = std::time::Instant::now();
    let summary = run(&plan, RunOptions::default()).unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "no hang");
    // random against: the crashing brain, the hanging brain, pattern.
    let [crashed, hung, pattern] = [&summary.pairings[0], &summary.pairings[1], &summary.pairings[2]];
    assert_eq!((crashed.results.wins, crashed.forfeits), (2, 2), "{summary}");
    assert_eq!((hung.results.wins, hung.forfeits), (2, 2), "{summary}");
    assert_eq!(pattern.results.games(), 2);
    assert_eq!(pattern.forfeits, 0);
}

#[test]
fn brains_play_swap2_through_swap2board() {
    let records = temp("swap2.jsonl");
    let _ = std::fs::remove_file(&records);
    let a = format!("external:path={BRAIN},args=alphabeta:ms=30");
    let b = format!("external:path={BRAIN},args=pattern");
    let plan = Plan {
        opening_rule: OpeningRule::Swap2,
        limits: Limits::time(std::time::Duration::from_millis(100)),
        seed: 3,
        ..Plan::new(Rules::gomoku15(), vec![entrant(&a), entrant(&b)], 2)
    };
    let summary = run(&plan, RunOptions { records: Some(&records), ..RunOptions::default() }).unwrap();
    assert_eq!((summary.pairings[0].results.games(), summary.pairings[0].forfeits), (2, 0), "{summary}");
    let lines = read_records(&records).unwrap();
    for (line, opener) in lines.iter().zip([&a, &b]) {
        assert_eq!(line.record.check(), Ok(()));
        let swap = line.record.swap.as_ref().unwrap();
        // Each brain opens once: the first player's colour says where its
        // label stands.
        assert_eq!(&line.specs[swap.opener.index()], opener, "{swap:?}");
        assert!(matches!(&swap.steps[0], SwapStep::Put(stones) if stones.len() == 3), "{swap:?}");
    }
}

#[test]
fn a_brain_that_does_not_know_swap2board_stops_the_run() {
    let unknown = script("unknown.sh", "echo UNKNOWN");
    let plan = Plan {
        opening_rule: OpeningRule::Swap2,
        limits: Limits::nodes(200),
        ..Plan::new(
            Rules::gomoku15(),
            vec![entrant("random"), entrant(&format!("external:path={}", unknown.display()))],
            2,
        )
    };
    let error = run(&plan, RunOptions::default()).unwrap_err().to_string();
    assert!(error.contains("unknown.sh") && error.contains("cannot play swap2 openings"), "{error}");
    assert!(error.contains("\"UNKNOWN\" to SWAP2BOARD"), "{error}");
}

#[test]
fn a_brain_that_puts_a_stone_off_the_board_forfeits_that_game_and_the_run_goes_on() {
    let wrong = script("off-board.sh", "echo 99,99 7,7 8,8");
    let plan = Plan {
        opening_rule: OpeningRule::Swap2,
        limits: Limits::nodes(200),
        ..Plan::new(
            Rules::gomoku15(),
            vec![entrant("random"), entrant(&format!("external:path={}", wrong.display()))],
            2,
        )
    };
    let summary = run(&plan, RunOptions::default()).unwrap();
    let pairing = &summary.pairings[0];
    assert_eq!(pairing.results.games(), 2, "{summary}");
    assert!(pairing.forfeits >= 1, "{summary}");
}

/// Sends `lines` to the brain and reads back up to its next answer that
/// is not a `MESSAGE`: every line it wrote, that answer last.
fn exchange(
    input: &mut std::process::ChildStdin,
    output: &mut BufReader<std::process::ChildStdout>,
    lines: &str,
) -> Vec<String> {
    write!(input, "{lines}").unwrap();
    input.flush().unwrap();
    let mut read = Vec::new();
    loop {
        let mut line = String::new();
        assert!(output.read_line(&mut line).unwrap() > 0, "the brain ended after {read:?}");
        let line = line.trim_end().to_owned();
        let done = !line.starts_with("MESSAGE");
        read.push(line);
        if done {
            return read;
        }
    }
}

#[test]
fn an_analysis_as_yixin_board_drives_it() {
    let (mut brain, mut input, mut output) = spawn("alphabeta");
    let mut send = |lines: &str| exchange(&mut input, &mut output, lines);
    // Nodes, not time, bound each search, so the transcript is the same on
    // any machine.
    assert_eq!(send("INFO timeout_turn 30000\nINFO max_node 40000\nSTART 15 15\n"), ["OK"]);
    // O (2) has an open three 5,7 6,7 7,7; X (1, to move) stones far off.
    let position = "YXBOARD\n5,7,2\n6,7,2\n7,7,2\n2,2,1\n12,12,1\n2,12,1\nDONE\n";
    let defence = send(&format!("{position}YXSEARCHDEFEND\n"));
    let (lost, answer) = defence.split_at(defence.len() - 1);
    assert!(["4,7", "8,7"].contains(&answer[0].as_str()), "only the close blocks hold: {defence:?}");
    assert!(lost.len() >= 10, "most moves lose to the open four: {defence:?}");
    for line in lost {
        let cell = line.strip_prefix("MESSAGE REALTIME LOSE ").unwrap_or_else(|| panic!("{line}"));
        assert!(!["4,7", "8,7"].contains(&cell), "a block is no loss: {defence:?}");
    }
    // Three best lines, then the best move, which is played.
    let lines = send(&format!("{position}YXNBEST 3\n"));
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (i, line) in lines[..3].iter().enumerate() {
        assert!(line.starts_with(&format!("MESSAGE line {} depth ", i + 1)), "{lines:?}");
    }
    // With one block blocked, the other is played.
    let blocked = send(&format!("{position}YXBLOCK\n4,7\nDONE\nYXNBEST 1\n"));
    assert_eq!(blocked.last().map(String::as_str), Some("8,7"), "{blocked:?}");
    let blocked = send(&format!("YXBLOCKRESET\nYXBLOCK\n8,7\nDONE\n{position}YXNBEST 1\n"));
    assert_eq!(blocked.last().map(String::as_str), Some("4,7"), "{blocked:?}");
    // A balanced stone for the side to move after one stone each.
    let balanced = send("YXBLOCKRESET\nYXBOARD\n7,7,2\n8,8,1\nDONE\nYXBALANCEONE 0\n");
    assert!(balanced[0].starts_with("MESSAGE balance ev "), "{balanced:?}");
    assert!(gomocup::protocol::parse_cell(&balanced[1]).is_ok(), "{balanced:?}");
    writeln!(input, "END").unwrap();
    drop(input);
    assert!(brain.wait().unwrap().success());
}

#[test]
fn a_node_budget_reaches_a_brain_as_max_node() {
    // The brain is told `INFO max_node`, so its search stops at the
    // budget whatever its time; the budget changes between moves.
    let spec: AgentSpec = format!("external:path={BRAIN},args=alphabeta").parse().unwrap();
    let mut brain = spec.build(0);
    let rules = Rules::gomoku15();
    brain.new_game(&rules);
    let mut pos = board::Position::new(rules);
    for cell in ["h8", "i9", "g9"] {
        pos.play(rules.parse_cell(cell).unwrap()).unwrap();
    }
    for budget in [2_000, 20_000] {
        brain.select_move(&pos, &Limits::nodes(budget)).unwrap();
        let nodes = brain.analysis().expect("the brain says what it searched").nodes;
        assert!(nodes > 0 && nodes <= budget + budget / 5, "{nodes} nodes at a budget of {budget}");
    }
}

/// The brain's answers to `input`, all of it sent at once, the input
/// closed after it (the brain answers the move it searches, then ends).
fn transcript(spec: &str, input: &str) -> Vec<String> {
    let (mut brain, mut stdin, output) = spawn(spec);
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let lines: Vec<String> = output.lines().map(Result::unwrap).collect();
    brain.wait().unwrap();
    lines
}

#[test]
fn alphabeta_plays_a_legal_cell_when_every_cell_near_the_stones_is_blocked() {
    use std::fmt::Write as _;
    // On the empty board the centre is the only cell near; with it
    // blocked the best other cell is played (BEGIN, YXNBEST, TURN alike).
    let answers = transcript("alphabeta", "INFO timeout_turn 300\nSTART 15\nYXBLOCK\n7,7\nDONE\nBEGIN\n");
    let moves: Vec<&String> = answers.iter().filter(|line| !line.starts_with("MESSAGE")).collect();
    assert_eq!(moves.len(), 2, "{answers:?}");
    assert!(!moves[1].starts_with("ERROR") && moves[1] != "7,7", "{answers:?}");
    // One stone at 7,7 and its 24 neighbours blocked.
    let mut blocks = String::new();
    for dx in -2_i32..=2 {
        for dy in -2_i32..=2 {
            if (dx, dy) != (0, 0) {
                let _ = writeln!(blocks, "{},{}", 7 + dx, 7 + dy);
            }
        }
    }
    let stone = "YXBOARD\n7,7,2\nDONE\n";
    for ask in ["TURN 7,7\n".to_owned(), format!("{stone}YXNBEST 2\n"), format!("{stone}YXBALANCEONE 0\n")] {
        let input = format!("INFO timeout_turn 300\nSTART 15\nYXBLOCK\n{blocks}DONE\n{ask}");
        let answers = transcript("alphabeta", &input);
        let last = answers.iter().rev().find(|line| !line.starts_with("MESSAGE")).unwrap();
        assert!(!last.starts_with("ERROR"), "{ask}: {answers:?}");
        let (x, y) = last.split(' ').next().unwrap().split_once(',').unwrap();
        let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
        assert!((x - 7).abs() > 2 || (y - 7).abs() > 2, "{ask}: {last} is blocked");
    }
}

#[test]
fn a_thread_count_beyond_the_engine_is_brought_down_and_said() {
    let answers =
        transcript("alphabeta", "INFO thread_num 65\nINFO timeout_turn 200\nSTART 15\nYXSHOWINFO\nBEGIN\n");
    assert!(
        answers.iter().any(|line| line.contains("thread_num 65 is more") && line.contains("64")),
        "{answers:?}"
    );
    assert!(answers.iter().any(|line| line == "OK"), "{answers:?}");
    assert!(!answers.iter().any(|line| line.starts_with("ERROR")), "{answers:?}");
    let max: usize = answers
        .iter()
        .find_map(|line| line.strip_prefix("MESSAGE INFO MAX_THREAD_NUM "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(max <= 64);
}

#[test]
fn a_move_the_database_marks_forced_is_played_at_once() {
    let path = temp("forced.db");
    for end in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{end}", path.display()));
    }
    let (mut brain, mut input, mut output) = spawn("alphabeta");
    let mut ask = |lines: &str| {
        writeln!(input, "{lines}").unwrap();
        input.flush().unwrap();
        loop {
            let mut answer = String::new();
            output.read_line(&mut answer).unwrap();
            if !answer.starts_with("MESSAGE") || answer.starts_with("MESSAGE DATABASE ONE") {
                return answer.trim_end().to_owned();
            }
        }
    };
    assert_eq!(ask(&format!("START 15\nYXSETDATABASE {}", path.display())), "OK");
    // a15 after h8: a move no search would choose, marked the only one.
    assert_eq!(ask("YXEDITTVDDATABASE 1 33 0 0\n7,7\n0,0\nDONE"), "MESSAGE DATABASE ONE 33 0 0 0 !");
    assert_eq!(ask("TURN 7,7"), "0,0");
    assert_eq!(ask("END"), "");
    assert!(brain.wait().unwrap().success());
}
