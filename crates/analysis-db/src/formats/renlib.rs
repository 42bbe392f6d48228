//! RenLib `.lib` files, the opening libraries renju players exchange: a
//! move tree with comments, marks and texts on the board, read into the
//! database and written out of it.
//!
//! The file is a 20-byte header (`FF "RenLib" FF`, the major and minor
//! version, ten `FF`s), then the tree in pre-order, two bytes a node: the
//! move (low nibble the column + 1, high nibble the row from the top; 0
//! for a node without a move) and its flags. A node's first child follows
//! it unless it has "no child"; after its subtree comes its next sibling
//! if it has "sibling". A node with a text has two extension bytes after
//! its flags; then its comment, then its text, each a run of bytes ended
//! by a zero that leaves the run an even length. A comment's first `\b`
//! divides its one-line part from the rest. A node without a move below
//! the root is a pass: the turn goes to the other side. As RenLib reads
//! a file, its end ends the tree wherever the tree stands (a last node
//! may promise a child the file does not hold), and the tree's last node
//! ends the reading whatever bytes follow it.
//!
//! In the database a node is the record of its position (an empty one if
//! it says nothing, so that the tree stays); its comment and mark are that
//! record's; its text is the parent position's text on the move's point,
//! except a text `W` or `L` (with a number of moves or `*` after it), which
//! is the position's label: the move wins or loses. A node flagged "no
//! move" is a marker: its text is on its point of the position it stands
//! in, and no stone is played. Texts and
//! comments are UTF-8 if they read as such, else one character a byte
//! (the file does not say its code page), which writes back byte for byte.

use board::{Cell, Position, Rules};
use play::analysis_store::Label;

use crate::storage::key::{KeySet, PositionKey, point_images};
use crate::storage::tree::{Child, Index};
use crate::{Database, DbError, MAX_TEXT_CHARS, Record};

/// The versions read: 3.0 up to 3.9 (RenLib 3.0 to 3.6 write 3.0 or 3.4).
const MAJOR: u8 = 3;
/// The header before the version bytes.
const MAGIC: [u8; 8] = [0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF];
const HEADER_LEN: usize = 20;

const TEXT: u8 = 0x01;
const MARK: u8 = 0x10;
const COMMENT: u8 = 0x08;
const NO_CHILD: u8 = 0x40;
/// A marker: a point with a text (a letter), no stone played.
const NO_MOVE: u8 = 0x02;
const SIBLING: u8 = 0x80;

/// The most nodes an export writes (a database whose positions join up in
/// many ways unfolds into a larger tree).
pub const MAX_EXPORT_NODES: u64 = 20_000_000;

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LibImport {
    /// Nodes in the file.
    pub nodes: u64,
    /// Records written (made or changed), each position once however many
    /// nodes wrote to it.
    pub written: u64,
    /// Nodes left out with all below them: a move on a stone, after the
    /// game ended, or one the rules refuse.
    pub skipped: u64,
}

/// One node as read.
struct Node {
    /// The move, `None` for a node without one (a root, a pass).
    cell: Option<Cell>,
    flags: u8,
    comment: Option<String>,
    text: Option<String>,
}

impl Node {
    /// The node's text, if it has one that says something.
    fn text(&self) -> Option<&str> {
        self.text.as_deref().filter(|text| !text.is_empty())
    }
}

/// The bytes of a file, read with the offset kept for errors.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, why: &str) -> DbError {
        DbError::Record(format!("the .lib file at byte {}: {why}", self.at))
    }

    fn byte(&mut self) -> Result<u8, DbError> {
        let byte = *self.bytes.get(self.at).ok_or_else(|| self.error("it ends inside a node"))?;
        self.at += 1;
        Ok(byte)
    }

    /// A zero-ended run, two bytes at a time.
    fn run(&mut self) -> Result<String, DbError> {
        let mut found = Vec::new();
        loop {
            let (first, second) = (self.byte()?, self.byte()?);
            if first == 0 {
                break;
            }
            found.push(first);
            if second == 0 {
                break;
            }
            found.push(second);
            if found.len() > 1 << 20 {
                return Err(self.error("a text runs past a megabyte"));
            }
        }
        Ok(decode(found))
    }

    fn node(&mut self) -> Result<Node, DbError> {
        let start = self.at;
        let (spot, flags) = (self.byte()?, self.byte()?);
        let cell = if spot == 0 {
            None
        } else {
            let (column, row) = (spot & 0x0F, spot >> 4);
            if column == 0 {
                self.at = start;
                return Err(self.error(&format!("the move byte {spot:#04x} names no point")));
            }
            Some(Cell::new(column - 1, row))
        };
        if flags & TEXT != 0 {
            self.byte()?;
            self.byte()?;
        }
        let comment = if flags & COMMENT != 0 { Some(self.run()?) } else { None };
        let text = if flags & TEXT != 0 { Some(self.run()?) } else { None };
        Ok(Node { cell, flags, comment, text })
    }
}

/// Bytes as text: UTF-8 if they are, else one character a byte.
fn decode(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|error| error.into_bytes().into_iter().map(char::from).collect())
}

/// Text as bytes: one a character if every character fits a byte (what
/// [`decode`] made of a file's code page), else UTF-8.
fn encode(text: &str) -> Vec<u8> {
    if text.chars().all(|c| u32::from(c) <= 0xFF) {
        text.chars().map(|c| u32::from(c) as u8).collect()
    } else {
        text.as_bytes().to_vec()
    }
}

/// A comment as the database keeps it: lines ended by `\n`, the one-line
/// part first.
fn comment_from_lib(text: &str) -> String {
    text.replacen('\u{8}', "\n", 1).replace("\r\n", "\n")
}

fn comment_to_lib(text: &str) -> String {
    match text.split_once('\n') {
        Some((first, rest)) => format!("{first}\u{8}{}", rest.replace('\n', "\r\n")),
        None => text.to_owned(),
    }
}

/// The label a node's text gives its position, if it reads as one: `W`
/// or `L`, alone or with a number of moves or `*` after it (what RenLib
/// users and the reference engine write). Any other text, `D` among them,
/// is a text on the point.
fn label_of_text(text: &str) -> Option<Label> {
    let (mark, rest) = text.split_at_checked(1)?;
    if !(rest.is_empty() || rest == "*" || rest.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    // The text is the mover's: a winning move leaves the side to move lost.
    match mark {
        "W" => Some(Label::Loss),
        "L" => Some(Label::Win),
        _ => None,
    }
}

/// Refuses boards a `.lib` cannot hold.
fn check_rules(rules: Rules) -> Result<(), DbError> {
    if rules.width() > 15 || rules.height() > 15 {
        return Err(DbError::Record(format!(
            "a .lib file holds boards up to 15×15, not {}×{}",
            rules.width(),
            rules.height()
        )));
    }
    Ok(())
}

impl Database {
    /// Reads the RenLib file `bytes` into the database, its tree from the
    /// empty board of `rules`, in one transaction: a file that is not a
    /// `.lib`, or is cut inside a node, changes nothing, and the error says
    /// where.
    ///
    /// # Errors
    /// [`DbError::Record`] for a file that does not read (with the byte),
    /// [`DbError::ReadOnly`], or a database that cannot be written.
    pub fn import_lib(&mut self, bytes: &[u8], rules: Rules) -> Result<LibImport, DbError> {
        check_rules(rules)?;
        let header = bytes.get(..HEADER_LEN).ok_or_else(|| {
            DbError::Record(format!("the .lib file has {} bytes, fewer than its header's 20", bytes.len()))
        })?;
        if header[..8] != MAGIC {
            return Err(DbError::Record("not a RenLib .lib file: its header is not \"RenLib\"".to_owned()));
        }
        if header[8] != MAJOR {
            return Err(DbError::Record(format!(
                "a RenLib file of version {}.{}: this build reads 3.x",
                header[8], header[9]
            )));
        }
        let mut reader = Reader { bytes, at: HEADER_LEN };
        self.write(|database| {
            let mut import = LibImport::default();
            // The records written, by key: a position that several nodes
            // write to (a transposition, a text on its parent) counts once.
            let mut written = KeySet::default();
            let mut pos = Position::new(rules);
            // The nodes whose subtrees are being read: whether each has a
            // sibling to come, and what became of its move.
            let mut open: Vec<(bool, Taken)> = Vec::new();
            // How many of them were skipped (their subtrees are read, not kept).
            let mut skipped_open = 0usize;
            // As RenLib reads a file: its end ends the tree, wherever the
            // tree stands (a node may promise a child or a sibling the
            // file does not hold), and so does the last node of the tree,
            // whatever bytes follow it; a byte too few for a node is no node.
            while bytes.len() - reader.at >= 2 {
                let root = import.nodes == 0;
                let node = reader.node()?;
                import.nodes += 1;
                let taken = match node.cell {
                    _ if skipped_open > 0 => Taken::Skipped,
                    // A marker: a text on a point of the position, no stone.
                    Some(cell) if node.flags & NO_MOVE != 0 => {
                        if let Some(text) = node.text()
                            && pos.rules().contains(cell)
                        {
                            database.put_text(&pos, cell, text, &mut written)?;
                        }
                        Taken::Marker
                    }
                    Some(cell) if !pos.is_over() && pos.play(cell).is_ok() => {
                        database.take_node(&pos, cell, &node, &mut written)?;
                        Taken::Played
                    }
                    Some(_) => Taken::Skipped,
                    None if root => {
                        database.take_node_here(&pos, &node, None, &mut written)?;
                        Taken::NoMove
                    }
                    None if pos.is_over() => Taken::Skipped,
                    None => {
                        pos.pass();
                        database.take_node_here(&pos, &node, None, &mut written)?;
                        Taken::Passed
                    }
                };
                if taken == Taken::Skipped {
                    import.skipped += 1;
                }
                let mut sibling = node.flags & SIBLING != 0;
                if node.flags & NO_CHILD == 0 {
                    skipped_open += usize::from(taken == Taken::Skipped);
                    open.push((sibling, taken));
                    continue;
                }
                take_back(&mut pos, taken);
                while !sibling {
                    let Some((has_sibling, taken)) = open.pop() else {
                        import.written = written.len() as u64;
                        return Ok(import);
                    };
                    if taken == Taken::Skipped {
                        skipped_open -= 1;
                    }
                    take_back(&mut pos, taken);
                    sibling = has_sibling;
                }
            }
            import.written = written.len() as u64;
            Ok(import)
        })
    }

    /// A node's move, just played to reach `pos`: its position's record
    /// (made if missing: the tree is kept), with the node's comment, mark
    /// and label, and its text on the parent's point. Adds the keys of the
    /// records it wrote to `written`.
    fn take_node(
        &self,
        pos: &Position,
        cell: Cell,
        node: &Node,
        written: &mut KeySet,
    ) -> Result<(), DbError> {
        let text = node.text();
        // A label's mark is the position's label; any other text the
        // parent's text on the point.
        let label = text.and_then(label_of_text);
        self.take_node_here(pos, node, label, written)?;
        match text {
            Some(text) if label.is_none() => {
                let mut parent = pos.clone();
                parent.undo();
                self.put_text(&parent, cell, text, written)
            }
            _ => Ok(()),
        }
    }

    /// `text` on `cell` of `pos`'s record (made if missing), on every image
    /// of the point.
    fn put_text(&self, pos: &Position, cell: Cell, text: &str, written: &mut KeySet) -> Result<(), DbError> {
        let text: String = text.chars().take(MAX_TEXT_CHARS).collect();
        let key = PositionKey::of(pos);
        let old = self.get_keyed(pos, &key)?;
        let kept = old.is_some();
        let mut record = old.unwrap_or_default();
        if record.text_at(pos, cell) == Some(text.as_str()) {
            return Ok(());
        }
        record.set_text(pos, cell, Some(text));
        self.put_keyed(pos, &key, &record, kept)?;
        written.insert(key.bytes);
        Ok(())
    }

    /// A node's comment, mark and `label` (where it has none), on `pos`'s
    /// record (made if missing); adds its key to `written` if it wrote.
    fn take_node_here(
        &self,
        pos: &Position,
        node: &Node,
        label: Option<Label>,
        written: &mut KeySet,
    ) -> Result<(), DbError> {
        let key = PositionKey::of(pos);
        let old = self.get_keyed(pos, &key)?;
        let mut record = old.clone().unwrap_or_default();
        if let Some(comment) = node.comment.as_deref().map(comment_from_lib).filter(|c| !c.is_empty())
            && !record.comment.contains(&comment)
        {
            if !record.comment.is_empty() {
                record.comment.push('\n');
            }
            record.comment.push_str(&comment);
        }
        record.marked |= node.flags & MARK != 0;
        if let Some(label) = label
            && record.label == Label::None
        {
            record.label = label;
        }
        if old.as_ref() == Some(&record) {
            return Ok(());
        }
        self.put_keyed(pos, &key, &record, old.is_some())?;
        written.insert(key.bytes);
        Ok(())
    }

    /// Writes the records from `pos` down as a RenLib file: the moves to
    /// `pos` as a line, then every position below it that has a record,
    /// siblings in row order, then a marker for each text on a point no
    /// move takes. Of moves that reach mirror images of one position, the
    /// one that reaches it as it was entered is written; a position the
    /// moves reach as entered somewhere is written there and not under
    /// another parent in another image; a position reached again by
    /// another move order is a leaf there (its comment and mark said
    /// once), its branch written where it first appeared. Returns the file
    /// and how many nodes it has.
    ///
    /// # Errors
    /// [`DbError::Record`] for a board larger than 15×15 or a tree of more
    /// than [`MAX_EXPORT_NODES`] nodes, or a file that cannot be read.
    pub fn export_lib(&self, pos: &Position) -> Result<(Vec<u8>, u64), DbError> {
        check_rules(*pos.rules())?;
        let mut out = MAGIC.to_vec();
        out.extend([MAJOR, 0]);
        out.extend([0xFF; 10]);
        let index = Index::load(self, pos)?;
        let mut writer = Writer {
            out,
            nodes: 0,
            index,
            expanded: KeySet::from_iter([PositionKey::of(pos).bytes]),
            start: pos.clone(),
            as_entered: None,
        };
        let mut here = Position::new(*pos.rules());
        let own = self.get(pos)?.unwrap_or_default();
        let children = self.children_keyed(&writer.index, pos)?;
        let children = self.entries(&mut writer, pos, &own, children)?;
        // The way to `pos`, one node a move, each the first child of the last.
        for (i, &cell) in pos.moves().iter().enumerate() {
            let last = i + 1 == pos.moves().len();
            here.play_unchecked(cell);
            let record = if last { own.clone() } else { self.get(&here)?.unwrap_or_default() };
            let text = self.text_of_move(&here, cell)?;
            let flags = if last && children.is_empty() { NO_CHILD } else { 0 };
            writer.node(Some(cell), flags, &record, text.as_deref())?;
        }
        // The empty board has a node of its own only to hold a comment or mark.
        if pos.moves().is_empty() && (!own.comment.is_empty() || own.marked) {
            let flags = if children.is_empty() { NO_CHILD } else { 0 };
            writer.node(None, flags, &own, None)?;
        }
        let mut here = pos.clone();
        self.export_entries(&mut writer, &mut here, &own, children)?;
        Ok((writer.out, writer.nodes))
    }

    /// What is written below `here` (whose record is `record`): one move
    /// for each position its `children` reach, where the export writes it,
    /// then a marker for each text on a point no move written takes.
    fn entries(
        &self,
        writer: &mut Writer,
        here: &Position,
        record: &Record,
        children: Vec<Child>,
    ) -> Result<Vec<Entry>, DbError> {
        let has_text = |cell: Cell| record.text_at(here, cell).is_some();
        let mut entries = Vec::with_capacity(children.len());
        for child in one_per_position(*here.rules(), children, has_text) {
            // A position reached here in another image than it was entered
            // in is written where the moves reach it as entered, if they
            // do: here it is left out, or (a text on its point) a leaf.
            let elsewhere =
                child.as_entered == Some(false) && self.reached_as_entered(writer, &child.key.bytes)?;
            if !elsewhere || has_text(child.cell) {
                entries.push(Entry::Move { child, elsewhere });
            }
        }
        let moved: Vec<Cell> = entries.iter().map(Entry::cell).collect();
        for (cell, text) in &record.texts {
            // (On a symmetric position a move to any image of the point takes it.)
            if !point_images(here, *cell).iter().any(|image| moved.contains(image)) {
                entries.push(Entry::Marker { cell: *cell, text: text.clone() });
            }
        }
        Ok(entries)
    }

    fn export_entries(
        &self,
        writer: &mut Writer,
        here: &mut Position,
        record: &Record,
        entries: Vec<Entry>,
    ) -> Result<(), DbError> {
        let count = entries.len();
        for (i, entry) in entries.into_iter().enumerate() {
            let sibling = if i + 1 < count { SIBLING } else { 0 };
            let (Child { cell, record: child, key, .. }, elsewhere) = match entry {
                Entry::Marker { cell, text } => {
                    writer.node(Some(cell), sibling | NO_MOVE | NO_CHILD, &Record::default(), Some(&text))?;
                    continue;
                }
                Entry::Move { child, elsewhere } => (child, elsewhere),
            };
            let text = record.text_at(here, cell).map(str::to_owned).or_else(|| label_text(child.label));
            here.play_unchecked(cell);
            // A position reached before (another move order) is written
            // as a leaf: its branch is under its first appearance.
            let first = !elsewhere && writer.expanded.insert(key.bytes);
            let below = if first {
                let children =
                    if here.is_over() { Vec::new() } else { self.children_keyed(&writer.index, here)? };
                self.entries(writer, here, &child, children)?
            } else {
                Vec::new()
            };
            let flags = if below.is_empty() { sibling | NO_CHILD } else { sibling };
            // A position written before keeps its comment and mark there.
            let said = if first {
                child.clone()
            } else {
                Record { comment: String::new(), marked: false, ..child.clone() }
            };
            writer.node(Some(cell), flags, &said, text.as_deref())?;
            self.export_entries(writer, here, &child, below)?;
            here.undo();
        }
        Ok(())
    }

    /// Whether the moves from where the export starts reach the position
    /// keyed `key` as it was entered (found by a walk the first time it
    /// is asked: most trees never ask).
    fn reached_as_entered(&self, writer: &mut Writer, key: &[u8]) -> Result<bool, DbError> {
        if writer.as_entered.is_none() {
            writer.as_entered = Some(self.reach_as_entered(&writer.index, &writer.start)?);
        }
        Ok(writer.as_entered.as_ref().is_some_and(|reached| reached.contains(key)))
    }

    /// The positions below `pos` that moves reach as they were entered,
    /// each through a position itself reached as entered, choosing among
    /// mirror images as the export does: where their branches are written.
    fn reach_as_entered(&self, index: &Index, pos: &Position) -> Result<KeySet, DbError> {
        let mut reached = KeySet::default();
        let mut here = pos.clone();
        self.reach_below(index, &mut here, &mut reached)?;
        Ok(reached)
    }

    fn reach_below(&self, index: &Index, here: &mut Position, reached: &mut KeySet) -> Result<(), DbError> {
        if here.is_over() {
            return Ok(());
        }
        let own = self.get(here)?.unwrap_or_default();
        let children = self.children_keyed(index, here)?;
        let rules = *here.rules();
        let texted: Vec<Cell> = own.texts.iter().flat_map(|(cell, _)| point_images(here, *cell)).collect();
        for child in one_per_position(rules, children, |cell| texted.contains(&cell)) {
            if child.as_entered != Some(false) && reached.insert(child.key.bytes.clone()) {
                here.play_unchecked(child.cell);
                let result = self.reach_below(index, here, reached);
                here.undo();
                result?;
            }
        }
        Ok(())
    }

    /// The text of the move `cell` that led to `pos`: its parent's text on
    /// the point, else the label's mark.
    fn text_of_move(&self, pos: &Position, cell: Cell) -> Result<Option<String>, DbError> {
        let mut parent = pos.clone();
        parent.undo();
        let text = self.get(&parent)?.and_then(|record| record.text_at(&parent, cell).map(str::to_owned));
        Ok(match text {
            Some(text) => Some(text),
            None => self.get(pos)?.and_then(|record| label_text(record.label)),
        })
    }
}

/// The children that reach different positions: of moves that reach
/// mirror images of one position (one record), the one that reaches it
/// in the image it was first written in (the moves as they were
/// entered), else the one with a text on its point, else the first in
/// row order; in row order.
fn one_per_position(rules: Rules, children: Vec<Child>, has_text: impl Fn(Cell) -> bool) -> Vec<Child> {
    let mut groups: Vec<Vec<Child>> = Vec::with_capacity(children.len());
    for child in children {
        match groups.iter_mut().find(|members| members[0].key.bytes == child.key.bytes) {
            Some(members) => members.push(child),
            None => groups.push(vec![child]),
        }
    }
    let mut chosen = Vec::with_capacity(groups.len());
    for mut members in groups {
        let pick = if members.len() == 1 {
            0
        } else {
            members
                .iter()
                .position(|child| child.as_entered == Some(true))
                .or_else(|| members.iter().position(|child| has_text(child.cell)))
                .unwrap_or(0)
        };
        chosen.push(members.swap_remove(pick));
    }
    chosen.sort_by_key(|child| rules.dense_index(child.cell));
    chosen
}

/// What became of a node's move on import.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Taken {
    Played,
    /// A node without a move below the root: a pass, the turn handed over.
    Passed,
    /// The root without a move: it stands for the empty board.
    NoMove,
    /// A marker: a text on a point, no stone played.
    Marker,
    /// Not kept, nor anything below it.
    Skipped,
}

/// Takes a node's move (or pass) back from `pos` on leaving its subtree.
fn take_back(pos: &mut Position, taken: Taken) {
    match taken {
        Taken::Played => {
            pos.undo();
        }
        Taken::Passed => pos.undo_pass(),
        Taken::NoMove | Taken::Marker | Taken::Skipped => {}
    }
}

/// The mark of a label on a move's point: the mover's result, `W` or `L`
/// (the labels a `.lib` carries; a `D` there is a text, as RenLib's users
/// write letters on points).
fn label_text(label: Label) -> Option<String> {
    match label {
        Label::Loss => Some("W".to_owned()),
        Label::Win => Some("L".to_owned()),
        Label::Draw | Label::None | Label::Forced | Label::Excluded => None,
    }
}

/// One node an export writes below a position.
enum Entry {
    /// A move to a position with a record; `elsewhere`: its branch is
    /// written where the moves reach it as entered (here a leaf).
    Move { child: Child, elsewhere: bool },
    /// A text on a point no move written takes.
    Marker { cell: Cell, text: String },
}

impl Entry {
    fn cell(&self) -> Cell {
        match self {
            Entry::Move { child, .. } => child.cell,
            Entry::Marker { cell, .. } => *cell,
        }
    }
}

/// A `.lib` being written.
struct Writer {
    out: Vec<u8>,
    nodes: u64,
    index: Index,
    /// The positions whose branches are written.
    expanded: KeySet,
    /// Where the export starts.
    start: Position,
    /// The positions moves reach as they were entered, once asked.
    as_entered: Option<KeySet>,
}

impl Writer {
    fn node(
        &mut self,
        cell: Option<Cell>,
        mut flags: u8,
        record: &Record,
        text: Option<&str>,
    ) -> Result<(), DbError> {
        self.nodes += 1;
        if self.nodes > MAX_EXPORT_NODES {
            return Err(DbError::Record(format!(
                "the tree unfolds into more than {MAX_EXPORT_NODES} nodes: export a branch of it"
            )));
        }
        let text = text.filter(|text| !text.is_empty());
        if text.is_some() {
            flags |= TEXT;
        }
        if !record.comment.is_empty() {
            flags |= COMMENT;
        }
        if record.marked {
            flags |= MARK;
        }
        self.out.push(cell.map_or(0, |cell| (cell.y() << 4) | (cell.x() + 1)));
        self.out.push(flags);
        if text.is_some() {
            self.out.extend([0, 1]);
        }
        if !record.comment.is_empty() {
            self.run(&encode(&comment_to_lib(&record.comment)));
        }
        if let Some(text) = text {
            self.run(&encode(text));
        }
        Ok(())
    }

    /// A zero-ended run padded to an even length.
    fn run(&mut self, bytes: &[u8]) {
        // (A zero inside would end the run early: it cannot be written.)
        self.out.extend(bytes.iter().copied().filter(|&byte| byte != 0));
        let written = bytes.iter().filter(|&&byte| byte != 0).count();
        self.out.extend(if written % 2 == 1 { &[0][..] } else { &[0, 0][..] });
    }
}
