//! `bench db random-lib`: a random RenLib library of a given size,
//! written from the format's description, to measure imports and exports
//! on: a tree grown one move at a time under a random node (moves within
//! five of the centre, none on a stone of its line, at most 40 deep), a
//! comment or a text here and there.

use rand::rngs::SmallRng;
use rand::{RngExt as _, SeedableRng};

/// The deepest line grown.
const MAX_DEPTH: usize = 40;

/// A node: its point (column, row from the top) and its children.
struct Node {
    point: (u8, u8),
    parent: u32,
    depth: u8,
    children: Vec<u32>,
}

/// A library of `nodes` nodes (at least one), the same for the same seed.
pub fn random_library(nodes: u64, seed: u64) -> Vec<u8> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tree = vec![Node { point: (7, 7), parent: u32::MAX, depth: 1, children: Vec::new() }];
    // The nodes that may grow a child.
    let mut open: Vec<u32> = vec![0];
    while (tree.len() as u64) < nodes.max(1) && !open.is_empty() {
        let slot = rng.random_range(0..open.len());
        let at = open[slot];
        let taken = line_of(&tree, at);
        let point = (rng.random_range(2..13), rng.random_range(2..13));
        let here = &tree[at as usize];
        let used =
            taken.contains(&point) || here.children.iter().any(|&child| tree[child as usize].point == point);
        if used {
            continue;
        }
        let depth = here.depth + 1;
        let child = tree.len() as u32;
        tree.push(Node { point, parent: at, depth, children: Vec::new() });
        tree[at as usize].children.push(child);
        if usize::from(depth) < MAX_DEPTH {
            open.push(child);
        }
        // A node with many children makes room for others.
        if tree[at as usize].children.len() >= 12 {
            open.swap_remove(slot);
        }
    }
    let mut out = vec![0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF, 3, 0];
    out.extend([0xFF; 10]);
    write(&tree, &[0], &mut rng, &mut out);
    out
}

/// The points of the line from the root to `at`.
fn line_of(tree: &[Node], mut at: u32) -> Vec<(u8, u8)> {
    let mut line = Vec::new();
    while at != u32::MAX {
        line.push(tree[at as usize].point);
        at = tree[at as usize].parent;
    }
    line
}

/// `siblings` and what lies below them, in pre-order.
fn write(tree: &[Node], siblings: &[u32], rng: &mut SmallRng, out: &mut Vec<u8>) {
    for (i, &index) in siblings.iter().enumerate() {
        let node = &tree[index as usize];
        let comment = rng.random_bool(0.05).then(|| format!("line {index}"));
        let text = rng.random_bool(0.05).then(|| char::from(rng.random_range(b'a'..=b'z')).to_string());
        let mut flags = 0_u8;
        if i + 1 < siblings.len() {
            flags |= 0x80;
        }
        if node.children.is_empty() {
            flags |= 0x40;
        }
        if comment.is_some() {
            flags |= 0x08;
        }
        if text.is_some() {
            flags |= 0x01;
        }
        out.push((node.point.1 << 4) | (node.point.0 + 1));
        out.push(flags);
        if text.is_some() {
            out.extend([0, 1]);
        }
        for run in [comment, text].into_iter().flatten() {
            out.extend(run.as_bytes());
            out.extend(if run.len() % 2 == 1 { &[0][..] } else { &[0, 0][..] });
        }
        write(tree, &node.children, rng, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_library_has_the_nodes_asked_for_and_reads_in() {
        let bytes = random_library(500, 7);
        assert_eq!(bytes, random_library(500, 7), "the same seed, the same file");
        let path = std::env::temp_dir().join(format!("bench-random-lib-{}.mnkdb", std::process::id()));
        let mut database = analysis_db::Database::open(&path).unwrap();
        let import = database.import_lib(&bytes, board::Rules::gomoku15()).unwrap();
        assert_eq!(import.nodes, 500);
        drop(database);
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", path.display()));
        }
    }
}
