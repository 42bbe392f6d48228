//! The database file: SQLite in WAL mode, so one writer and many readers
//! (the terminal game and a brain at once) share it across processes and
//! whatever was committed survives a killed program.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use board::{Cell, Position, Rules, Transform};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use crate::DbError;
use crate::storage::key::{PositionKey, canonical_point};
use play::analysis_store::{Bound, Label};

use crate::client::record::{MAX_COMMENT_CHARS, MAX_TEXT_CHARS, Record};
use crate::storage::tree::cell_at;

/// `PRAGMA application_id` of our files: "mnkA".
const APPLICATION_ID: i64 = 0x6D6E_6B41;

/// The schema this build writes and reads (1 lacked `marked`, 2 lacked
/// `image`: they are added when such a file is opened for writing).
pub const SCHEMA: i64 = 3;

/// How long a writer waits for another to finish before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

const CREATE: &str = "
CREATE TABLE positions (
    rules   TEXT    NOT NULL,
    key     BLOB    NOT NULL,
    label   INTEGER NOT NULL DEFAULT 0,
    value   INTEGER,
    depth   INTEGER,
    bound   INTEGER NOT NULL DEFAULT 0,
    comment TEXT    NOT NULL DEFAULT '',
    marked  INTEGER NOT NULL DEFAULT 0,
    image   INTEGER,
    PRIMARY KEY (rules, key)
) WITHOUT ROWID;
CREATE TABLE texts (
    rules TEXT    NOT NULL,
    key   BLOB    NOT NULL,
    cell  INTEGER NOT NULL,
    text  TEXT    NOT NULL,
    PRIMARY KEY (rules, key, cell)
) WITHOUT ROWID;
";

/// A record's columns as read: label, value, depth, bound, comment, mark.
type Columns = (i64, Option<i32>, Option<i64>, i64, String, i64);

/// An analysis database: records of positions up to symmetry.
#[derive(Debug)]
pub struct Database {
    connection: Connection,
    path: PathBuf,
    read_only: bool,
    /// The file's schema (1 read-only has no `marked` column).
    schema: i64,
}

impl Database {
    /// Opens the database at `path` for reading and writing, making it if
    /// there is no file.
    ///
    /// # Errors
    /// [`DbError`]: a file of another program or of a newer schema (left
    /// as it is), or one SQLite cannot open.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        Database::open_with(path, false)
    }

    /// Opens an existing database for reading only: every write is refused.
    ///
    /// # Errors
    /// As [`Database::open`], and if there is no file.
    pub fn open_read_only(path: &Path) -> Result<Database, DbError> {
        Database::open_with(path, true)
    }

    fn open_with(path: &Path, read_only: bool) -> Result<Database, DbError> {
        let sqlite = |source| DbError::Sqlite { path: path.to_owned(), source };
        let flags = if read_only {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
        };
        let connection = Connection::open_with_flags(path, flags).map_err(sqlite)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(sqlite)?;
        let mut database = Database { connection, path: path.to_owned(), read_only, schema: SCHEMA };
        database.schema = database.check_or_create()?;
        // 64 MiB of pages in memory (SQLite's default is 2): an import's
        // transaction and an export's walk touch the whole file.
        database.connection.pragma_update(None, "cache_size", -65_536).map_err(sqlite)?;
        Ok(database)
    }

    /// Checks the file is ours and of a schema this build reads, making the
    /// tables in a new, empty file and bringing an older one up to date
    /// when it is opened for writing. Returns the file's schema.
    fn check_or_create(&self) -> Result<i64, DbError> {
        let foreign = |why: String| DbError::Foreign { path: self.path.clone(), why };
        // Not SQLite at all reads as "file is not a database" here.
        let pragma = |name: &str| -> Result<i64, DbError> {
            self.connection.query_row(&format!("PRAGMA {name}"), [], |row| row.get(0)).map_err(|source| {
                match source {
                    rusqlite::Error::SqliteFailure(error, _)
                        if error.code == rusqlite::ErrorCode::NotADatabase =>
                    {
                        foreign(if crate::formats::yxdb::looks_like_yxdb(&self.path) {
                            "it is a database file of Yixin or Rapfi: import it with `bench db import-yxdb`"
                                .to_owned()
                        } else {
                            "it is not an SQLite file".to_owned()
                        })
                    }
                    source => self.sqlite(source),
                }
            })
        };
        let application = pragma("application_id")?;
        let schema = pragma("user_version")?;
        let tables: i64 = self
            .connection
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
            .map_err(|source| self.sqlite(source))?;
        if application == 0 && tables == 0 {
            if self.read_only {
                return Err(foreign("it is empty".to_owned()));
            }
            return self.create().map(|()| SCHEMA);
        }
        if application != APPLICATION_ID {
            return Err(foreign(format!("its application id is {application:#x}")));
        }
        if schema > SCHEMA {
            return Err(DbError::Newer { path: self.path.clone(), found: schema, reads: SCHEMA });
        }
        if self.read_only {
            return Ok(schema);
        }
        self.wal()?;
        if schema < SCHEMA {
            let marked = if schema < 2 {
                "ALTER TABLE positions ADD COLUMN marked INTEGER NOT NULL DEFAULT 0;"
            } else {
                ""
            };
            self.connection
                .execute_batch(&format!(
                    "BEGIN IMMEDIATE; {marked} ALTER TABLE positions ADD COLUMN image INTEGER; PRAGMA user_version = {SCHEMA}; COMMIT;"
                ))
                .map_err(|source| self.sqlite(source))?;
        }
        Ok(SCHEMA)
    }

    /// The tables of a new file, and its id and schema, in one transaction.
    fn create(&self) -> Result<(), DbError> {
        self.wal()?;
        let batch = format!(
            "BEGIN; {CREATE} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA}; COMMIT;"
        );
        self.connection.execute_batch(&batch).map_err(|source| self.sqlite(source))
    }

    /// Write-ahead logging: readers never wait for the writer, and a
    /// commit is on disk when it returns.
    fn wal(&self) -> Result<(), DbError> {
        self.connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))
            .map_err(|source| self.sqlite(source))?;
        self.connection.pragma_update(None, "synchronous", "NORMAL").map_err(|source| self.sqlite(source))
    }

    /// The SQLite connection, for the crate's other modules.
    pub(crate) fn connection(&self) -> &Connection {
        &self.connection
    }

    pub(crate) fn sqlite(&self, source: rusqlite::Error) -> DbError {
        DbError::Sqlite { path: self.path.clone(), source }
    }

    /// The file it reads.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether writes are refused.
    #[must_use]
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The record of `pos` (or of any of its mirror images), if one is kept.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read.
    pub fn get(&self, pos: &Position) -> Result<Option<Record>, DbError> {
        self.get_keyed(pos, &PositionKey::of(pos))
    }

    /// [`Database::get`] of a position whose key is known.
    pub(crate) fn get_keyed(&self, pos: &Position, key: &PositionKey) -> Result<Option<Record>, DbError> {
        Ok(self.get_with_image(pos, key)?.map(|(record, _)| record))
    }

    /// [`Database::get_keyed`], and the image the record was first written
    /// in, if the file says.
    pub(crate) fn get_with_image(
        &self,
        pos: &Position,
        key: &PositionKey,
    ) -> Result<Option<(Record, Option<Transform>)>, DbError> {
        let rules = pos.rules().to_string();
        let found = self
            .connection
            .prepare_cached(match self.schema {
                3.. => "SELECT label, value, depth, bound, comment, marked, image FROM positions WHERE rules = ?1 AND key = ?2",
                2 => "SELECT label, value, depth, bound, comment, marked, NULL FROM positions WHERE rules = ?1 AND key = ?2",
                _ => "SELECT label, value, depth, bound, comment, 0, NULL FROM positions WHERE rules = ?1 AND key = ?2",
            })
            .and_then(|mut statement| {
                statement
                    .query_row(params![rules, key.bytes], |row| {
                        Ok((
                            row.get::<_, i64>(0)?,
                            row.get(1)?,
                            row.get::<_, Option<i64>>(2)?,
                            row.get::<_, i64>(3)?,
                            row.get(4)?,
                            row.get::<_, i64>(5)?,
                            row.get::<_, Option<i64>>(6)?,
                        ))
                    })
                    .optional()
            })
            .map_err(|source| self.sqlite(source))?;
        let Some((label, value, depth, bound, comment, marked, image)) = found else { return Ok(None) };
        let mut record = self.record_of((label, value, depth, bound, comment, marked))?;
        record.texts = self.texts(*pos.rules(), key)?;
        let image = image
            .and_then(|index| usize::try_from(index).ok())
            .and_then(|index| Transform::ALL.get(index).copied());
        Ok(Some((record, image)))
    }

    /// A record (its texts apart) from its row's columns: label, value,
    /// depth, bound, comment, mark.
    fn record_of(&self, columns: Columns) -> Result<Record, DbError> {
        let (label, value, depth, bound, comment, marked) = columns;
        let damaged =
            |what: &str| DbError::Record(format!("{}: a record's {what} is damaged", self.path.display()));
        Ok(Record {
            label: Label::from_number(label).ok_or_else(|| damaged("label"))?,
            value,
            depth: depth.map(u32::try_from).transpose().map_err(|_| damaged("depth"))?,
            bound: Bound::from_number(bound).ok_or_else(|| damaged("bound"))?,
            comment,
            marked: marked != 0,
            texts: Vec::new(),
        })
    }

    /// A text's point from its stored index, in the key's image.
    fn text_point(&self, rules: Rules, index: i64) -> Result<Cell, DbError> {
        usize::try_from(index).ok().and_then(|index| cell_at(rules, index)).ok_or_else(|| {
            DbError::Record(format!("{}: a text's point is off the board", self.path.display()))
        })
    }

    /// The texts of the record keyed `key`, in the position's coordinates.
    fn texts(&self, rules: Rules, key: &PositionKey) -> Result<Vec<(Cell, String)>, DbError> {
        let back = key.transform.inverse();
        let mut statement = self
            .connection
            .prepare_cached("SELECT cell, text FROM texts WHERE rules = ?1 AND key = ?2 ORDER BY cell")
            .map_err(|source| self.sqlite(source))?;
        let rows = statement
            .query_map(params![rules.to_string(), key.bytes], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(|source| self.sqlite(source))?;
        let mut texts = Vec::new();
        for row in rows {
            let (index, text) = row.map_err(|source| self.sqlite(source))?;
            texts.push((back.apply(self.text_point(rules, index)?, &rules), text));
        }
        texts.sort_by_key(|&(cell, _)| rules.dense_index(cell));
        Ok(texts)
    }

    /// Keeps `record` as the record of `pos` (and of its mirror images),
    /// replacing any. An empty record is kept too: the position was seen.
    ///
    /// # Errors
    /// [`DbError::ReadOnly`], a record that cannot be kept (a text too
    /// long or on a point off the board), or a file that cannot be written.
    pub fn put(&mut self, pos: &Position, record: &Record) -> Result<(), DbError> {
        self.write(|database| database.put_in(pos, record))
    }

    /// Deletes the record of `pos`, if one is kept.
    ///
    /// # Errors
    /// [`DbError::ReadOnly`], or a file that cannot be written.
    pub fn delete(&mut self, pos: &Position) -> Result<(), DbError> {
        self.write(|database| database.delete_in(pos))
    }

    /// [`Database::delete`] inside a [`Database::write`].
    ///
    /// # Errors
    /// As [`Database::delete`].
    pub fn delete_in(&self, pos: &Position) -> Result<(), DbError> {
        let key = PositionKey::of(pos);
        let rules = pos.rules().to_string();
        for sql in [
            "DELETE FROM texts WHERE rules = ?1 AND key = ?2",
            "DELETE FROM positions WHERE rules = ?1 AND key = ?2",
        ] {
            self.connection
                .prepare_cached(sql)
                .and_then(|mut statement| statement.execute(params![rules, key.bytes]))
                .map_err(|source| self.sqlite(source))?;
        }
        Ok(())
    }

    /// Runs `change` as one transaction: every write in it is committed
    /// together, or (an error) none is.
    ///
    /// # Errors
    /// [`DbError::ReadOnly`], or the first error of `change` or of the
    /// commit.
    pub fn write<T>(&mut self, change: impl FnOnce(&Database) -> Result<T, DbError>) -> Result<T, DbError> {
        if self.read_only {
            return Err(DbError::ReadOnly { path: self.path.clone() });
        }
        self.connection.execute_batch("BEGIN IMMEDIATE").map_err(|source| self.sqlite(source))?;
        match change(self) {
            Ok(value) => {
                self.connection.execute_batch("COMMIT").map_err(|source| self.sqlite(source))?;
                Ok(value)
            }
            Err(error) => {
                // The error says what went wrong; a failed rollback leaves
                // SQLite to undo the transaction when the file next opens.
                let _ = self.connection.execute_batch("ROLLBACK");
                Err(error)
            }
        }
    }

    /// [`Database::put`] inside a [`Database::write`].
    ///
    /// # Errors
    /// As [`Database::put`].
    pub fn put_in(&self, pos: &Position, record: &Record) -> Result<(), DbError> {
        self.put_keyed(pos, &PositionKey::of(pos), record, true)
    }

    /// [`Database::put_in`] of a position whose key is known; `kept`: the
    /// position may have a record already (else there are no texts of
    /// its to take away first).
    pub(crate) fn put_keyed(
        &self,
        pos: &Position,
        key: &PositionKey,
        record: &Record,
        kept: bool,
    ) -> Result<(), DbError> {
        check(*pos.rules(), record)?;
        let rules = pos.rules().to_string();
        let run = |sql: &str, values: &[&dyn rusqlite::ToSql]| {
            self.connection.prepare_cached(sql).and_then(|mut statement| statement.execute(values))
        };
        if kept {
            run("DELETE FROM texts WHERE rules = ?1 AND key = ?2", &[&rules, &key.bytes])
                .map_err(|source| self.sqlite(source))?;
        }
        // The image the position was first written in stays (an export
        // writes the moves as they were entered).
        let image =
            Transform::ALL.iter().position(|&transform| transform == key.transform).map(|index| index as i64);
        run(
            "INSERT INTO positions (rules, key, label, value, depth, bound, comment, marked, image) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (rules, key) DO UPDATE SET label = excluded.label, value = excluded.value, depth = excluded.depth,
                 bound = excluded.bound, comment = excluded.comment, marked = excluded.marked",
            &[&rules, &key.bytes, &record.label.number(), &record.value, &record.depth, &record.bound.number(), &record.comment, &record.marked, &image],
        )
        .map_err(|source| self.sqlite(source))?;
        let rules_of = pos.rules();
        // A symmetric position's text is kept at the first in row order of
        // the points it could be kept at, as the reference engine keeps it.
        let onto = if record.texts.is_empty() { Vec::new() } else { key.transforms_onto(pos) };
        for (cell, text) in &record.texts {
            let index = rules_of.dense_index(canonical_point(pos, *cell, &onto)) as i64;
            run(
                "INSERT OR REPLACE INTO texts (rules, key, cell, text) VALUES (?1, ?2, ?3, ?4)",
                &[&rules, &key.bytes, &index, text],
            )
            .map_err(|source| self.sqlite(source))?;
        }
        Ok(())
    }

    /// The records of the positions one move from `pos`: each legal cell
    /// whose position after it has a record, in row order — what a GUI
    /// shows on the board's points.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read.
    pub fn children(&self, pos: &Position) -> Result<Vec<(Cell, Record)>, DbError> {
        let rules = *pos.rules();
        let mut after = pos.clone();
        let keyed: Vec<(Cell, PositionKey)> = pos
            .legal_cells()
            .into_iter()
            .map(|cell| {
                after.play_unchecked(cell);
                let key = PositionKey::of(&after);
                after.undo();
                (cell, key)
            })
            .collect();
        let mut keys: Vec<&[u8]> = keyed.iter().map(|(_, key)| key.bytes.as_slice()).collect();
        keys.sort_unstable();
        keys.dedup();
        // One query for the records, one for their texts.
        let marked = if self.schema >= 2 { "marked" } else { "0" };
        let found: HashMap<Vec<u8>, Record> = self.rows_of(
            &format!("SELECT key, label, value, depth, bound, comment, {marked} FROM positions WHERE rules = ?1 AND key IN"),
            rules,
            &keys,
            |row| Ok((row.get::<_, Vec<u8>>(0)?, (row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))),
        )?
        .into_iter()
        .map(|(key, columns)| Ok((key, self.record_of(columns)?)))
        .collect::<Result<_, DbError>>()?;
        let found_keys: Vec<&[u8]> = keys.into_iter().filter(|key| found.contains_key(*key)).collect();
        let mut texts: HashMap<Vec<u8>, Vec<(Cell, String)>> = HashMap::new();
        for (key, index, text) in self.rows_of(
            "SELECT key, cell, text FROM texts WHERE rules = ?1 AND key IN",
            rules,
            &found_keys,
            |row| Ok((row.get::<_, Vec<u8>>(0)?, row.get::<_, i64>(1)?, row.get::<_, String>(2)?)),
        )? {
            texts.entry(key).or_default().push((self.text_point(rules, index)?, text));
        }
        let mut children = Vec::new();
        for (cell, key) in keyed {
            let Some(record) = found.get(&key.bytes) else { continue };
            let back = key.transform.inverse();
            let mut texts: Vec<(Cell, String)> = texts
                .get(&key.bytes)
                .into_iter()
                .flatten()
                .map(|(point, text)| (back.apply(*point, &rules), text.clone()))
                .collect();
            texts.sort_by_key(|&(cell, _)| rules.dense_index(cell));
            children.push((cell, Record { texts, ..record.clone() }));
        }
        Ok(children)
    }

    /// The rows `select` (ending in `key IN`) finds for `keys`, each read
    /// by `read`.
    fn rows_of<T>(
        &self,
        select: &str,
        rules: Rules,
        keys: &[&[u8]],
        read: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, DbError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let marks = vec!["?"; keys.len()].join(", ");
        let rules = rules.to_string();
        let mut values: Vec<&dyn rusqlite::ToSql> = vec![&rules];
        values.extend(keys.iter().map(|key| key as &dyn rusqlite::ToSql));
        let mut statement = self
            .connection
            .prepare_cached(&format!("{select} ({marks})"))
            .map_err(|source| self.sqlite(source))?;
        let rows = statement
            .query_map(rusqlite::params_from_iter(values), read)
            .and_then(Iterator::collect::<Result<Vec<T>, _>>)
            .map_err(|source| self.sqlite(source))?;
        Ok(rows)
    }

    /// How many positions have records.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read.
    pub fn len(&self) -> Result<u64, DbError> {
        self.connection
            .query_row("SELECT count(*) FROM positions", [], |row| row.get::<_, i64>(0))
            .map(|count| count.max(0) as u64)
            .map_err(|source| self.sqlite(source))
    }

    /// Adds the records of the database at `other` to this one, in one
    /// transaction: a position only `other` has is copied; one both have
    /// takes `other`'s label where this one has none, its value, depth
    /// and bound where they are deeper, and its comment where this one
    /// has none; texts on points this one has not are added. `other` is
    /// only read. Returns how many records were added and how many
    /// changed.
    ///
    /// # Errors
    /// [`DbError::ReadOnly`], `other` not an analysis database this build
    /// reads (nothing is changed), or a file that cannot be read or written.
    pub fn merge_from(&mut self, other: &Path) -> Result<(u64, u64), DbError> {
        // Checked as any database is before it is read.
        let other_schema = Database::open_read_only(other)?.schema;
        let other_marks = other_schema >= 2;
        let other_text = other
            .to_str()
            .ok_or_else(|| DbError::Record(format!("{} is not a path SQLite takes", other.display())))?
            .to_owned();
        let before = self.len()?;
        if self.read_only {
            return Err(DbError::ReadOnly { path: self.path.clone() });
        }
        // (SQLite attaches only outside a transaction.)
        self.connection
            .execute("ATTACH DATABASE ?1 AS other", [&other_text])
            .map_err(|source| self.sqlite(source))?;
        let changed = self.write(|database| {
            let run = |sql: &str| database.connection.execute(sql, []).map_err(|source| database.sqlite(source));
            let changed = run(
                "UPDATE positions SET
                     label = CASE WHEN positions.label = 0 THEN o.label ELSE positions.label END,
                     value = CASE WHEN coalesce(o.depth, -1) > coalesce(positions.depth, -1) THEN o.value ELSE positions.value END,
                     bound = CASE WHEN coalesce(o.depth, -1) > coalesce(positions.depth, -1) THEN o.bound ELSE positions.bound END,
                     depth = max(coalesce(o.depth, -1), coalesce(positions.depth, -1)),
                     comment = CASE WHEN positions.comment = '' THEN o.comment ELSE positions.comment END
                 FROM other.positions AS o
                 WHERE o.rules = positions.rules AND o.key = positions.key
                   AND (positions.label = 0 AND o.label != 0
                        OR coalesce(o.depth, -1) > coalesce(positions.depth, -1)
                        OR positions.comment = '' AND o.comment != '')",
            )?;
            // (A depth of -1 stood for none in the comparison.)
            run("UPDATE positions SET depth = NULL WHERE depth = -1")?;
            if other_marks {
                run("UPDATE positions SET marked = 1 FROM other.positions AS o
                     WHERE o.rules = positions.rules AND o.key = positions.key AND o.marked != 0 AND positions.marked = 0")?;
            }
            let marked = if other_marks { "marked" } else { "0" };
            let image = if other_schema >= 3 { "image" } else { "NULL" };
            run(&format!(
                "INSERT OR IGNORE INTO positions (rules, key, label, value, depth, bound, comment, marked, image)
                 SELECT rules, key, label, value, depth, bound, comment, {marked}, {image} FROM other.positions"
            ))?;
            run("INSERT OR IGNORE INTO texts SELECT rules, key, cell, text FROM other.texts")?;
            Ok(changed as u64)
        });
        let _ = self.connection.execute_batch("DETACH DATABASE other");
        let changed = changed?;
        Ok((self.len()?.saturating_sub(before), changed))
    }

    /// How many records each rule set has under each label: `(rules,
    /// label, count)`, by rules then label.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read, [`DbError::Record`]
    /// for a label it does not know.
    pub fn label_counts(&self) -> Result<Vec<(String, Label, u64)>, DbError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT rules, label, count(*) FROM positions GROUP BY rules, label ORDER BY rules, label",
            )
            .map_err(|source| self.sqlite(source))?;
        let rows = statement
            .query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?, row.get::<_, i64>(2)?)))
            .map_err(|source| self.sqlite(source))?;
        let mut counts = Vec::new();
        for row in rows {
            let (rules, label, count) = row.map_err(|source| self.sqlite(source))?;
            let label = Label::from_number(label).ok_or_else(|| {
                DbError::Record(format!("{}: a record's label is damaged", self.path.display()))
            })?;
            counts.push((rules, label, count.max(0) as u64));
        }
        Ok(counts)
    }

    /// Whether no position has a record.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read.
    pub fn is_empty(&self) -> Result<bool, DbError> {
        self.len().map(|count| count == 0)
    }

    /// A number that changes whenever another connection (another
    /// program, or another handle in this one) commits a change to the
    /// file: a view of the records reads again when it changes.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read.
    pub fn data_version(&self) -> Result<i64, DbError> {
        self.connection
            .query_row("PRAGMA data_version", [], |row| row.get(0))
            .map_err(|source| self.sqlite(source))
    }
}

/// Refuses what a record may not hold.
fn check(rules: Rules, record: &Record) -> Result<(), DbError> {
    if record.comment.chars().count() > MAX_COMMENT_CHARS {
        return Err(DbError::Record(format!("a comment holds at most {MAX_COMMENT_CHARS} characters")));
    }
    for (cell, text) in &record.texts {
        if !rules.contains(*cell) {
            return Err(DbError::Record(format!(
                "a text's point {cell:?} is off the {}×{} board",
                rules.width(),
                rules.height()
            )));
        }
        if text.is_empty() || text.chars().count() > MAX_TEXT_CHARS {
            return Err(DbError::Record(format!(
                "the text {text:?} at {} must be 1 to {MAX_TEXT_CHARS} characters",
                cell.name(&rules)
            )));
        }
    }
    Ok(())
}
