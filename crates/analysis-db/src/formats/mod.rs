//! The files other programs write and read: RenLib's `.lib` ([`renlib`]),
//! Yixin's and the reference engine's database file ([`yxdb`]), CSV
//! ([`csv`]), each read within the same bounds ([`limits`]).

pub(crate) mod csv;
pub(crate) mod limits;
pub(crate) mod renlib;
pub(crate) mod yxdb;
