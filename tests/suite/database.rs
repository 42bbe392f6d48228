//! An engine with an analysis database, as a spec gives it
//! (`alphabeta:db=FILE`): a win the database holds is played without a
//! search, results are written back, and the same search again reaches
//! the same move through fewer positions.

use analysis_db::{Database, Record};
use board::{Position, Rules};
use play::analysis_store::Label;
use play::{Agent, Limits};
use roster::AgentSpec;

struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", self.0.display()));
        }
    }
}

fn agent(path: &std::path::Path, write: bool) -> Box<dyn Agent> {
    let spec = format!("alphabeta:db={},db_write={write}", path.display());
    let mut agent = AgentSpec::parse(&spec).unwrap().build(0);
    agent.new_game(&Rules::gomoku15());
    agent
}

#[test]
fn an_engine_reads_and_writes_its_analysis_database() {
    let scratch = Scratch(std::env::temp_dir().join(format!("mnk-db-engine-{}.mnkdb", std::process::id())));
    let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 j9 i8 i10").unwrap();
    // A search writes its root and line back; the same search again, with
    // what the first one kept, goes as deep through fewer positions (at
    // depth 9 about three quarters as many; at a depth where the line's
    // values barely help, the count may go either way by a few percent).
    // The stored values reshape the tree, and the history that orders
    // it, so of near-equal moves another may come out best (here h6 at
    // −710 where the first search said h5 at −733).
    let mut first = agent(&scratch.0, true);
    first.select_move(&pos, &Limits::depth(9)).unwrap();
    let nodes = first.analysis().unwrap().nodes;
    drop(first);
    let database = Database::open_read_only(&scratch.0).unwrap();
    let root = database.get(&pos).unwrap().expect("the root was written back");
    assert_eq!(root.depth, Some(9));
    drop(database);
    let mut second = agent(&scratch.0, false);
    let cell = second.select_move(&pos, &Limits::depth(9)).unwrap();
    assert_eq!(pos.get(cell), None, "{cell:?} is taken");
    assert_eq!(second.analysis().unwrap().depth, Some(9));
    let fewer = second.analysis().unwrap().nodes;
    assert!(fewer < nodes, "{nodes} then {fewer}");
    // A move to a position the database says its side to move loses is
    // played at once, however far from the stones.
    let far = pos.rules().parse_cell("a15").unwrap();
    let mut after = pos.clone();
    after.play(far).unwrap();
    Database::open(&scratch.0).unwrap().put(&after, &Record::labelled(Label::Loss)).unwrap();
    let mut reader = agent(&scratch.0, false);
    assert_eq!(reader.select_move(&pos, &Limits::depth(8)).unwrap(), far);
    assert_eq!(reader.analysis().unwrap().nodes, 0);
    // A file that is not a database is an error of the spec, and is left as it was.
    std::fs::write(&scratch.0, "notes").unwrap();
    let error = AgentSpec::parse(&format!("alphabeta:db={}", scratch.0.display())).unwrap_err();
    assert!(error.to_string().contains("not an mnk analysis database"), "{error}");
    assert_eq!(std::fs::read_to_string(&scratch.0).unwrap(), "notes");
}
