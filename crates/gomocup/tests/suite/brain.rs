//! The brain side through in-memory pipes: every command and its answer.

use std::io::Cursor;
use std::time::Duration;

use board::{Cell, Position, Rules};
use gomocup::{Resources, serve};

use crate::common::{First, about};
use play::{Agent, AgentError, Limits};

/// Thinks until told to stop (or for 10 s), then plays the first empty cell.
struct Stubborn;

impl Agent for Stubborn {
    fn name(&self) -> String {
        "stubborn".to_owned()
    }
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        let start = std::time::Instant::now();
        while !limits.stopped() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        First.select_move(pos, limits)
    }
}

/// Input that ends a while after its last byte, as a manager's pipe stays
/// open while the brain thinks (at the end of input a brain answers the
/// move it is searching, then ends).
struct LingeringInput {
    bytes: Cursor<Vec<u8>>,
    linger: Duration,
}

impl std::io::Read for LingeringInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.bytes.read(buf)?;
        if read == 0 {
            std::thread::sleep(std::mem::take(&mut self.linger));
        }
        Ok(read)
    }
}

/// The brain's answers to `input`, line by line.
fn run(input: &str, stubborn: bool) -> Vec<String> {
    run_bytes(input.as_bytes(), stubborn, Duration::from_millis(300))
}

/// The brain's answers to raw `input`, ending `linger` after it.
fn run_bytes(input: &[u8], stubborn: bool, linger: Duration) -> Vec<String> {
    let mut output = Vec::new();
    let make = move |rules: Rules, _: Resources| -> Result<Box<dyn Agent>, String> {
        if rules.width() == 7 {
            return Err("this engine does not play 7x7".to_owned());
        }
        Ok(if stubborn { Box::new(Stubborn) } else { Box::new(First) })
    };
    let input = std::io::BufReader::new(LingeringInput { bytes: Cursor::new(input.to_vec()), linger });
    serve(input, &mut output, about(), Box::new(make)).unwrap();
    String::from_utf8(output).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn a_game_from_begin_and_turn() {
    let answers = run("START 15\nBEGIN\nTURN 5,5\nTURN 3,0\n", false);
    assert_eq!(answers, ["OK", "0,0", "1,0", "2,0"]);
    assert_eq!(run("START 15\nEND\nBEGIN\n", false), ["OK"], "END stops the brain");
}

#[test]
fn about_answers_the_four_fields() {
    assert_eq!(run("ABOUT\n", false), [r#"name="test", version="1.0", author="us", country="-""#]);
}

#[test]
fn board_blocks_set_the_position_and_the_side() {
    // Two own, two opponent: we are X, to move.
    let answers = run("START 10\nBOARD\n0,0,1\n1,0,2\n2,0,1\n3,0,2\nDONE\n", false);
    assert_eq!(answers, ["OK", "4,0"]);
    // One own, two opponent: we are O. CRLF endings work too.
    let answers = run("START 10\r\nBOARD\r\n0,0,2\r\n1,0,1\r\n2,0,2\r\nDONE\r\n", false);
    assert_eq!(answers, ["OK", "3,0"]);
}

#[test]
fn a_stray_done_leaves_the_board_as_it_is() {
    let answers = run("START 10\nBEGIN\nDONE\nTURN 5,5\n", false);
    assert_eq!(answers[..2], ["OK", "0,0"]);
    assert!(answers[2].starts_with("ERROR DONE without a BOARD block"), "{answers:?}");
    // Our 0,0 is still there: the next first empty cell is 1,0.
    assert_eq!(answers[3], "1,0");
    let answers = run("START 10\nBEGIN\nSWAP2BOARD\n3,3\nDONE\nTURN 5,5\n", false);
    assert_eq!(answers.last().map(String::as_str), Some("1,0"), "{answers:?}");
}

#[test]
fn swap2_openings_are_proposed_and_chosen() {
    // An empty opening: three stones about the centre (an engine that
    // says nothing of its chances finds every opening even: the first).
    assert_eq!(run("START 15\nSWAP2BOARD\nDONE\n", false), ["OK", "7,7 8,7 4,4"]);
    // Offered three (white to move), an engine that finds it even puts
    // two more stones; the game goes on from them.
    let answers = run("START 15\nSWAP2BOARD\n7,7\n8,7\n9,9\nDONE\nTURN 2,0\n", false);
    assert_eq!(answers, ["OK", "0,0 1,0", "3,0"]);
    // Offered five, it stays white and plays the sixth.
    let answers = run("START 15\nSWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE\n", false);
    assert_eq!(answers, ["OK", "0,0"]);
    // Stones written as BOARD writes them (x,y,who) are read by order.
    let answers = run("START 15\nSWAP2BOARD\n7,7,2\n8,7,1\n9,9,2\n8,8,1\n8,6,2\nDONE\n", false);
    assert_eq!(answers, ["OK", "0,0"]);
    // INFO rule 6 (freestyle with swap2, as Yixin Board sends it) is
    // freestyle; a block of four stones or a stone given twice is an
    // error, and the board stays as it was.
    let answers = run(
        "INFO rule 6\nSTART 15\nSWAP2BOARD\n7,7\n8,7\n9,9\n8,8\nDONE\nSWAP2BOARD\n7,7\n7,7\n9,9\nDONE\nBEGIN\n",
        false,
    );
    assert_eq!(answers[0], "OK");
    assert!(answers[1].contains("with 4 stones: swap2 offers none, three or five"), "{answers:?}");
    assert!(answers[2].contains("opening stone 2") && answers[2].contains("taken"), "{answers:?}");
    assert_eq!(answers[3..], ["0,0"], "{answers:?}");
}

#[test]
fn takeback_and_restart() {
    let answers = run("START 10\nBEGIN\nTAKEBACK 0,0\nBEGIN\nTURN 5,5\nRESTART\nBEGIN\n", false);
    assert_eq!(answers, ["OK", "0,0", "OK", "0,0", "1,0", "OK", "0,0"]);
}

#[test]
fn bad_input_gets_error_and_the_brain_goes_on() {
    let answers = run(
        "TURN 1,1\nSTART 40\nSTART 7\nSTART 10\nTURN 3\nTURN 10,10\nBEGIN\nTURN 0,0\nPLAY 1\nBOARD\n1,1,5\nDONE\nTAKEBACK 8,8\nINFO rule 3\nTURN 2,2\n",
        false,
    );
    let expected_starts = [
        "ERROR no game",
        "ERROR unsupported size 40x40",
        "ERROR this engine does not play 7x7",
        "OK",
        "ERROR expected coordinates",
        "ERROR TURN 10,10",
        "0,0",
        "ERROR TURN 0,0",
        "UNKNOWN",
        "ERROR who must be",
        // The block goes on without the bad line: an empty board, X to move.
        "0,0",
        "ERROR TAKEBACK 8,8",
        "ERROR rule 3: not a rule we play",
        "1,0",
    ];
    assert_eq!(answers.len(), expected_starts.len(), "{answers:#?}");
    for (answer, expected) in answers.iter().zip(expected_starts) {
        assert!(answer.starts_with(expected), "{answer:?} should start with {expected:?}\n{answers:#?}");
    }
}

#[test]
fn any_line_ending_and_any_byte_are_read() {
    // Bytes that are not UTF-8 are an unknown command, not the end.
    let answers = run_bytes(b"START 15\n\xff\nBEGIN\n", false, Duration::from_millis(300));
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers[1].starts_with("UNKNOWN"), "{answers:?}");
    assert_eq!(answers[2], "0,0");
    // CR alone ends a line, as LF and CRLF do.
    assert_eq!(run("START 15\rBEGIN\r\nTURN 5,5\r", false), ["OK", "0,0", "1,0"]);
    // An overlong line is refused, briefly.
    let mut long = b"START 15\n".to_vec();
    long.extend(std::iter::repeat_n(b'x', gomocup::input::MAX_LINE + 1));
    long.extend_from_slice(b"\nBEGIN\n");
    let answers = run_bytes(&long, false, Duration::from_millis(300));
    assert!(answers[1].starts_with("ERROR a line of") && answers[1].len() < 200, "{answers:?}");
    assert_eq!(answers[2], "0,0");
}

#[test]
fn a_board_block_left_open_gives_way_to_the_next_command() {
    let answers = run("START 10\nBOARD\n1,1,1\nSTART 10\nBEGIN\nBOARD x\nABOUT\n", false);
    assert_eq!(answers.len(), 6, "{answers:?}");
    assert!(answers[1].starts_with("ERROR a BOARD block ended without DONE"), "{answers:?}");
    assert_eq!(answers[2..4], ["OK", "0,0"]);
    assert!(answers[4].starts_with("ERROR BOARD takes nothing"), "{answers:?}");
    assert!(answers[5].starts_with("name="), "{answers:?}");
}

#[test]
fn end_while_thinking_stops_at_once_and_answers_what_came_before_it() {
    let input = "START 10\nINFO timeout_turn 20000\nBEGIN\nEND\nABOUT\n";
    let start = std::time::Instant::now();
    let answers = run_bytes(input.as_bytes(), true, Duration::ZERO);
    assert_eq!(answers, ["OK", "0,0"], "the move found when stopped; nothing after END");
    assert!(start.elapsed() < Duration::from_secs(5), "it stopped thinking at once");
    // Commands queued behind a search are answered when END stops it,
    // another search among them stopped at once too.
    let input = "START 10\nINFO timeout_turn 20000\nBEGIN\nABOUT\nTURN 5,5\nEND\nABOUT\n";
    let start = std::time::Instant::now();
    let answers = run_bytes(input.as_bytes(), true, Duration::ZERO);
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!((answers[1].as_str(), answers[3].as_str()), ("0,0", "1,0"), "{answers:?}");
    assert!(answers[2].starts_with("name="), "{answers:?}");
    assert!(start.elapsed() < Duration::from_secs(5), "both searches stopped at once");
}

#[test]
fn exactly_five_is_a_rule() {
    // INFO rule 1 before START: the game is played with exactly five.
    let answers =
        run("INFO rule 1\nSTART 10\nINFO timeout_turn 50\nINFO time_left 2147483647\nBEGIN\n", false);
    assert_eq!(answers, ["OK", "0,0"]);
}

#[test]
fn yxstop_makes_the_brain_move_now() {
    let start = std::time::Instant::now();
    let answers = run("START 10\nINFO timeout_turn 20000\nBEGIN\nYXSTOP\nABOUT\n", true);
    assert_eq!(answers[..2], ["OK", "0,0"]);
    assert!(answers[2].starts_with("name="), "commands sent while thinking are answered after: {answers:?}");
    assert!(start.elapsed() < Duration::from_secs(5), "stopped early");
}

#[test]
fn max_memory_rebuilds_the_engine_within_it_before_the_move() {
    use std::sync::{Arc, Mutex};
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&calls);
    let make = move |_: Rules, resources: Resources| -> Result<Box<dyn Agent>, String> {
        seen.lock().unwrap().push(resources);
        Ok(Box::new(First))
    };
    let mut output = Vec::new();
    let input = "START 10\nBEGIN\nINFO max_memory 83886080\nTURN 5,5\nINFO max_memory 0\nINFO thread_num 2\nINFO hash_size 1024\nINFO thread_num 2\n";
    let input = std::io::BufReader::new(LingeringInput {
        bytes: Cursor::new(input.into()),
        linger: Duration::from_millis(300),
    });
    serve(input, &mut output, about(), Box::new(make)).unwrap();
    assert_eq!(String::from_utf8(output).unwrap(), "OK\n0,0\n1,0\n", "the game goes on");
    let memory =
        |max_memory, threads, table_bytes| Resources { max_memory, threads, table_bytes, database: None };
    // Each change builds the engine again; the same value does not. The
    // table's size is hash_size's KiB, larger or smaller.
    assert_eq!(
        *calls.lock().unwrap(),
        [
            memory(None, None, None),
            memory(Some(83_886_080), None, None),
            memory(None, None, None),
            memory(None, Some(2), None),
            memory(None, Some(2), Some(1 << 20)),
        ]
    );
}

#[test]
fn renju_and_caro_are_read_from_info_rule_and_forbidden_points_shown() {
    // White (the brain) answers; then black is to move with a double
    // three at 7,7, which YXSHOWFORBID lists.
    let board = "BOARD\n5,7,2\n0,0,1\n6,7,2\n0,2,1\n7,5,2\n0,4,1\n7,6,2\n0,6,1\n14,14,2\nDONE\n";
    let answers = run(&format!("INFO rule 4\nSTART 15\n{board}YXSHOWFORBID\n"), false);
    assert_eq!(answers, ["OK", "1,0", "FORBID 0707."]);
    // Yixin Board's 2 is renju too; freestyle forbids nothing.
    assert_eq!(run(&format!("INFO rule 2\nSTART 15\n{board}YXSHOWFORBID\n"), false)[2], "FORBID 0707.");
    assert_eq!(run(&format!("START 15\n{board}YXSHOWFORBID\n"), false)[2], "FORBID .");
    // Caro with exactly five is 9, with five or more 8; 3 is no rule.
    assert_eq!(run("INFO rule 9\nSTART 15\nBEGIN\n", false), ["OK", "0,0"]);
    assert_eq!(run("INFO rule 8\nSTART 15\nBEGIN\n", false), ["OK", "0,0"]);
    let answers = run("INFO rule 3\nSTART 15\n", false);
    assert!(answers[0].starts_with("ERROR rule 3: not a rule we play"), "{answers:?}");
}

#[test]
fn the_end_of_input_lets_the_move_being_searched_be_answered() {
    // `printf 'START 15\r\nBEGIN\r\n' | pbrain-mnk`: input ends at once.
    let answers = run_bytes(b"START 15\r\nBEGIN\r\n", false, Duration::ZERO);
    assert_eq!(answers, ["OK", "0,0"]);
}

#[test]
fn what_yixin_board_sends_before_an_analysis_is_understood() {
    // `START W H`, then a position by YXBOARD: no answer, no move. Black
    // (the side to move, 1) has a double three at 7,7 under renju.
    let yxboard = "YXBOARD\n5,7,1\n0,0,2\n6,7,1\n0,2,2\n7,5,1\n0,4,2\n7,6,1\n0,6,2\nDONE\n";
    let answers = run(&format!("INFO rule 4\nstart 15 15\n{yxboard}YXSHOWFORBID\nYXHASHCLEAR\n"), false);
    assert_eq!(answers, ["OK", "FORBID 0707."]);
    // Freestyle: nothing is forbidden in that position.
    assert_eq!(run(&format!("START 15 15\n{yxboard}YXSHOWFORBID\n"), false), ["OK", "FORBID ."]);
    // A bad block says why and leaves the board as it was.
    let answers = run("START 15 15\nYXBOARD\n0,0,1\n1,0,1\nDONE\nBEGIN\n", false);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers[1].starts_with("ERROR BOARD has 2 own and 0 opponent stones"), "{answers:?}");
    assert_eq!(answers[2], "0,0");
    // The brain's limits, as the GUI reads them.
    let answers = run("YXSHOWINFO\n", false);
    assert!(answers[0].starts_with("MESSAGE INFO MAX_THREAD_NUM "), "{answers:?}");
    assert_eq!(answers[1], "MESSAGE INFO MAX_HASH_SIZE 22");
}

#[test]
fn yxnbest_shows_numbered_lines_then_plays_the_best_move() {
    let answers = run("START 15 15\nYXBOARD\n0,0,1\n1,0,2\nDONE\nYXNBEST 3\n", false);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers[1].starts_with("MESSAGE line 1"), "{answers:?}");
    assert_eq!(answers[2], "2,0");
    assert!(run("START 15\nYXNBEST x\n", false)[1].starts_with("ERROR"));
}

#[test]
fn blocked_cells_are_never_played_until_freed() {
    // The first empty cell is blocked: the brain plays elsewhere (an
    // engine that does not read the blocks is kept off them).
    let input = "START 10\nYXBLOCK\n0,0\n1,0\nDONE\nBEGIN\nYXBLOCKUNDO\n0,0\nDONE\nTURN 9,9\nYXBLOCKRESET\nTURN 9,8\n";
    let answers = run(input, false);
    assert_eq!(answers, ["OK", "5,5", "0,0", "1,0"]);
    // A cell off the board says so; the others are taken. A block left
    // open gives way to the next command.
    let answers = run("START 10\nYXBLOCK\n12,3\n0,0\nDONE\nBEGIN\nYXBLOCK\n1,0\nBEGIN\n", false);
    assert!(answers[1].starts_with("ERROR cells off the board, not taken: 12,3"), "{answers:?}");
    assert_eq!(answers[2], "5,5");
    assert!(answers[3].starts_with("ERROR a YXBLOCK block ended without DONE"), "{answers:?}");
    let answers = run("START 10\nYXBLOCKUNDO\n1,0\nBEGIN\n", false);
    assert!(answers[1].starts_with("ERROR a YXBLOCKUNDO block ended without DONE"), "{answers:?}");
    // YXNBEST keeps off them too, with an engine that does not read them.
    let answers = run("START 10\nYXBLOCK\n0,0\nDONE\nYXNBEST 2\n", false);
    assert_eq!(answers.last().map(String::as_str), Some("5,5"), "{answers:?}");
    // A new game forgets the blocks.
    assert_eq!(run("START 10\nYXBLOCK\n0,0\nDONE\nRESTART\nBEGIN\n", false), ["OK", "OK", "0,0"]);
}

#[test]
fn balance_answers_the_stones_and_puts_them() {
    // An engine that says nothing of its chances finds every stone even:
    // the one nearest the stones' middle.
    let answers = run("START 15\nYXBOARD\n7,7,2\nDONE\nYXBALANCEONE 0\nTURN 0,0\n", false);
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert!(answers[1].starts_with("MESSAGE balance ev 0 (target 0"), "{answers:?}");
    let one = gomocup::protocol::parse_cell(&answers[2]).unwrap();
    assert!(one.x().abs_diff(7) <= 1 && one.y().abs_diff(7) <= 1, "{answers:?}");
    // Then the engine answers as the side that did not put it.
    assert_eq!(answers[3], "1,0");
    let answers = run("START 15\nYXBOARD\n7,7,2\nDONE\nYXBALANCETWO -100\n", false);
    let two: Vec<&str> = answers[2].split(' ').collect();
    assert_eq!(two.len(), 2, "{answers:?}");
    assert_ne!(two[0], two[1]);
    assert!(run("START 15\nYXBALANCEONE\n", false)[1].starts_with("ERROR YXBALANCEONE takes the value"));
}

#[test]
fn a_defence_search_without_proofs_plays_a_move() {
    // An engine that proves nothing finds no losing move, and moves.
    let answers = run("START 10\nYXBOARD\n5,5,2\nDONE\nYXSEARCHDEFEND\n", false);
    assert_eq!(answers, ["OK", "0,0"]);
}

#[test]
fn a_swap2_proposal_stops_when_told() {
    // Judging the candidate openings listens to YXSTOP as a move does.
    let start = std::time::Instant::now();
    let answers = run("START 15\nINFO timeout_turn 20000\nSWAP2BOARD\nDONE\nYXSTOP\n", true);
    assert_eq!(answers, ["OK", "7,7 8,7 4,4"]);
    assert!(start.elapsed() < Duration::from_secs(5), "stopped early");
    let start = std::time::Instant::now();
    let answers = run("START 15\nINFO timeout_turn 20000\nSWAP2BOARD\n7,7\n8,7\n9,9\nDONE\nEND\n", true);
    assert_eq!(answers.len(), 2, "END stops it, its answer given: {answers:?}");
    assert!(start.elapsed() < Duration::from_secs(5), "stopped early");
}

/// Reports root moves and a finished depth a while into its search, as a
/// deepening engine does, then plays 3,3.
struct Reporter;

impl Agent for Reporter {
    fn name(&self) -> String {
        "reporter".to_owned()
    }
    fn select_move(&mut self, _: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        std::thread::sleep(Duration::from_millis(250));
        let (best, lost) = (Cell::new(3, 3), Cell::new(0, 9));
        limits.root_move(best, play::RootStep::Entered, 6);
        limits.root_move(best, play::RootStep::Done, 6);
        limits.root_move(lost, play::RootStep::Lost, 6);
        limits.publish(|| play::Analysis {
            value: Some(35.0),
            line: vec![best, Cell::new(4, 4)],
            ..play::Analysis::of_move(best, play::ScoreKind::Evaluation)
        });
        std::thread::sleep(Duration::from_millis(50));
        Ok(best)
    }
}

#[test]
fn realtime_lines_follow_the_search_when_asked_for() {
    let transcript = |input: &str| {
        let mut output = Vec::new();
        let make = |_: Rules, _: Resources| -> Result<Box<dyn Agent>, String> { Ok(Box::new(Reporter)) };
        serve(Cursor::new(input.to_owned()), &mut output, about(), Box::new(make)).unwrap();
        String::from_utf8(output).unwrap().lines().map(str::to_owned).collect::<Vec<_>>()
    };
    let answers = transcript("START 10\nINFO show_detail 1\nBEGIN\n");
    assert_eq!(
        answers,
        [
            "OK",
            "MESSAGE REALTIME POS 3,3",
            "MESSAGE REALTIME DONE 3,3",
            "MESSAGE REALTIME LOSE 0,9",
            "MESSAGE REALTIME REFRESH",
            "MESSAGE REALTIME BEST 3,3",
            "MESSAGE REALTIME VAL 35",
            "MESSAGE REALTIME PV 3,3 4,4",
            "3,3",
        ]
    );
    // Not asked for (or switched off), none.
    assert_eq!(transcript("START 10\nBEGIN\n"), ["OK", "3,3"]);
    assert_eq!(transcript("START 10\nINFO show_detail 1\nINFO show_detail 0\nBEGIN\n"), ["OK", "3,3"]);
}

#[test]
fn max_node_limits_each_search_and_minus_one_lifts_it() {
    use std::sync::{Arc, Mutex};
    /// Plays the first empty cell, noting the node limit it was given.
    struct Noting(Arc<Mutex<Vec<Option<u64>>>>);
    impl Agent for Noting {
        fn name(&self) -> String {
            "noting".to_owned()
        }
        fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
            self.0.lock().unwrap().push(limits.nodes);
            First.select_move(pos, limits)
        }
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let noted = Arc::clone(&seen);
    let make = move |_: Rules, _: Resources| -> Result<Box<dyn Agent>, String> {
        Ok(Box::new(Noting(Arc::clone(&noted))))
    };
    let input = "START 10\nINFO max_node 5000\nBEGIN\nINFO max_node -1\nTURN 9,9\nINFO caution_factor 2\nINFO pondering 1\nTURN 9,8\n";
    let mut output = Vec::new();
    serve(Cursor::new(input.to_owned()), &mut output, about(), Box::new(make)).unwrap();
    assert_eq!(String::from_utf8(output).unwrap(), "OK\n0,0\n1,0\n2,0\n", "unused keys change nothing");
    assert_eq!(*seen.lock().unwrap(), [Some(5000), None, None]);
}

#[test]
fn unknown_yixin_commands_are_unknown_and_the_game_goes_on() {
    let answers = run("START 15\nYXSETRELEASEUPDATE 3\nYXRESULT 1\nBEGIN\n", false);
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert!(answers[1].starts_with("UNKNOWN") && answers[2].starts_with("UNKNOWN"), "{answers:?}");
    assert_eq!(answers[3], "0,0");
}
