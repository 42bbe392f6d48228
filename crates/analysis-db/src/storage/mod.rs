//! The file: SQLite in WAL mode ([`store`]), a position's key up to the
//! board's symmetries ([`key`]), and the records as a tree ([`tree`]).

pub(crate) mod key;
pub(crate) mod store;
pub(crate) mod tree;
