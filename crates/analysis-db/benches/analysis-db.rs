//! Criterion benches of the database: `cargo bench -p analysis-db`. A
//! database of `ANALYSIS_DB_RECORDS` records (default 1,000,000, made
//! once in one transaction and kept under `target/`), then a record read
//! and the children of a position read (what `YXQUERYDATABASEALL` asks).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use analysis_db::{Database, Record};
use board::{Position, Rules};
use criterion::{Criterion, criterion_group, criterion_main};
use play::analysis_store::Bound;

/// Positions of 2 to 9 stones near the centre, one a seed, the same every run.
fn position(seed: u64) -> Position {
    let rules = Rules::gomoku15();
    let mut pos = Position::new(rules);
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let stones = 2 + (seed % 8) as usize;
    while pos.ply() < stones {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let near: Vec<_> = pos
            .legal_cells()
            .iter()
            .filter(|cell| cell.x().abs_diff(7) <= 4 && cell.y().abs_diff(7) <= 4)
            .collect();
        if pos.play(near[(state % near.len() as u64) as usize]).is_err() || pos.is_over() {
            return Position::from_moves(rules, "h8 i9").expect("legal");
        }
    }
    pos
}

fn database() -> Database {
    let records: u64 =
        std::env::var("ANALYSIS_DB_RECORDS").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../target/analysis-db-bench-{records}.mnkdb"));
    let mut database = Database::open(&path).expect("the bench database opens");
    if database.len().expect("it reads") < records {
        let start = Instant::now();
        database
            .write(|database| {
                for seed in 0..records * 2 {
                    database
                        .put_in(&position(seed), &Record::valued((seed % 1000) as i32, 10, Bound::Exact))?;
                }
                Ok(())
            })
            .expect("the records are written");
        eprintln!(
            "made {} records in {:.1} s",
            database.len().expect("it reads"),
            start.elapsed().as_secs_f64()
        );
    }
    database
}

fn queries(c: &mut Criterion) {
    let database = database();
    let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 j9").expect("legal");
    c.bench_function("get one record", |b| b.iter(|| database.get(black_box(&pos))));
    c.bench_function("children of a 3-stone position (YXQUERYDATABASEALL)", |b| {
        b.iter(|| database.children(black_box(&pos)));
    });
}

criterion_group!(benches, queries);
criterion_main!(benches);
