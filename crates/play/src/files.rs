//! Files loaded whole — weights, tables, checkpoints, saved games,
//! openings — read within a size limit checked while reading, so that
//! neither a huge file nor an endless one (`/dev/zero`) fills the memory.

use std::io::{self, BufRead, Read};
use std::path::Path;

/// The largest file loaded whole, unless `MNK_MAX_FILE_MIB` raises it.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The limit in force: [`MAX_FILE_BYTES`], or `MNK_MAX_FILE_MIB` MiB.
#[must_use]
pub fn max_file_bytes() -> u64 {
    std::env::var("MNK_MAX_FILE_MIB")
        .ok()
        .and_then(|mib| mib.trim().parse::<u64>().ok())
        .map_or(MAX_FILE_BYTES, |mib| mib.saturating_mul(1 << 20))
}

/// The bytes of `path`, refused (`InvalidData`) past `limit` bytes.
///
/// # Errors
/// Reading fails, or the file is longer than `limit`.
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the file is larger than {} MiB, the most loaded whole (MNK_MAX_FILE_MIB raises it)",
                limit >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// The bytes of `path`, within [`max_file_bytes`].
///
/// # Errors
/// As [`read_limited`].
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    read_limited(path, max_file_bytes())
}

/// The text of `path`, within [`max_file_bytes`].
///
/// # Errors
/// As [`read_limited`], or the file is not UTF-8.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}

/// The longest line a line-by-line reader takes (records, saved games):
/// a game's line is far shorter, an endless stream without a newline
/// (`/dev/zero`) is refused at this length.
pub const MAX_LINE_BYTES: u64 = 4 << 20;

/// Reads one line into `buffer` (cleared first), the newline kept, as
/// [`io::BufRead::read_until`] does but refused (`InvalidData`) past
/// `limit` bytes; returns the bytes read (0 at the end).
///
/// # Errors
/// Reading fails, or the line is longer than `limit`.
pub fn read_line_limited(
    reader: &mut impl io::BufRead,
    buffer: &mut Vec<u8>,
    limit: u64,
) -> io::Result<usize> {
    buffer.clear();
    let read = reader.take(limit.saturating_add(1)).read_until(b'\n', buffer)?;
    if read as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a line is longer than {} KiB: this is not a file of lines", limit >> 10),
        ));
    }
    Ok(read)
}

/// A 64-bit FNV-1a checksum of `bytes`: stable across builds and
/// platforms, and changed by any change of a single byte (each step is a
/// bijection of the state), which is what a damaged file shows.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// Whether `a` and `b` are one file however they are spelt: the same
/// device and inode where both exist (links followed), else the same path
/// once the folder's links are resolved (an output not made yet).
#[must_use]
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    let resolved = |path: &Path| {
        if let Ok(real) = path.canonicalize() {
            return Some(real);
        }
        let parent = path.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."));
        parent.canonicalize().ok().map(|parent| parent.join(path.file_name().unwrap_or_default()))
    };
    a == b || matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// Writes `bytes` to a temporary file beside `path` (`.NAME.tmp`), flushes
/// it to the disk, then renames it over `path`: a reader never sees half a
/// file, an old file is replaced only by a whole new one, and a failed
/// write (a full disk) leaves no temporary file behind. Only a regular file
/// or a new name is written: a device, a FIFO, a socket or a folder at
/// `path` is refused (a rename would replace `/dev/full` with a file), and
/// a symbolic link is written through, to the file it names.
///
/// # Errors
/// If `path` is not a regular file or a new name, or the file cannot be
/// written or renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target;
    let path = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            // A link to a file not made yet names it relative to the link's folder.
            target = std::fs::canonicalize(path).or_else(|_| {
                std::fs::read_link(path)
                    .map(|to| path.parent().map_or_else(|| to.clone(), |dir| dir.join(&to)))
            })?;
            target.as_path()
        }
        _ => path,
    };
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is not a regular file ({}): refusing to replace it",
                    path.display(),
                    kind_of(&meta)
                ),
            ));
        }
        _ => {}
    }
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.tmp"));
    let written = std::fs::File::create(&temporary)
        .and_then(|mut file| {
            io::Write::write_all(&mut file, bytes)?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// What a file that is not a regular one is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() { "a folder" } else { "not a regular file" }
}

/// The hold on `path` that this program already has, shared, or a new
/// one ([`lock_output`]): parts of one program that write the same file
/// (the tables of two engine specs naming one file) share the hold, while
/// another program is refused. The hold ends when the last part drops it.
///
/// # Errors
/// As [`lock_output`].
pub fn lock_output_shared(path: &Path) -> io::Result<std::sync::Arc<OutputLock>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, PoisonError, Weak};
    static HELD: Mutex<Option<HashMap<std::path::PathBuf, Weak<OutputLock>>>> = Mutex::new(None);
    // The folder's real path, so that two spellings of one file meet.
    let key = match (path.parent().filter(|p| !p.as_os_str().is_empty()), path.file_name()) {
        (Some(dir), Some(name)) => {
            std::fs::canonicalize(dir).map_or_else(|_| path.to_owned(), |dir| dir.join(name))
        }
        _ => std::env::current_dir().map_or_else(|_| path.to_owned(), |dir| dir.join(path)),
    };
    let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    let held = held.get_or_insert_with(HashMap::new);
    if let Some(lock) = held.get(&key).and_then(Weak::upgrade) {
        return Ok(lock);
    }
    let lock = Arc::new(lock_output(path)?);
    held.insert(key, Arc::downgrade(&lock));
    Ok(lock)
}

/// An exclusive hold on an output file, for as long as it lives: see
/// [`lock_output`].
#[derive(Debug)]
pub struct OutputLock {
    _sidecar: std::fs::File,
}

/// Takes the exclusive hold on `path` that every program writing it takes,
/// so that two never write one file at once: a lock on the sidecar file
/// `PATH.lock` (the file itself may be replaced by a rename, which would
/// drop a lock on it). The sidecar stays behind, empty; deleting it while
/// nothing runs is harmless.
///
/// # Errors
/// `WouldBlock`, saying so, while another program holds it; or the
/// sidecar cannot be made.
pub fn lock_output(path: &Path) -> io::Result<OutputLock> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let sidecar = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&name)?;
    match sidecar.try_lock() {
        Ok(()) => Ok(OutputLock { _sidecar: sidecar }),
        Err(std::fs::TryLockError::WouldBlock) => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            format!(
                "another program is writing {} (it holds {})",
                path.display(),
                Path::new(&name).display()
            ),
        )),
        Err(std::fs::TryLockError::Error(error)) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_limit_is_refused_before_it_fills_the_memory() {
        let mut text: &[u8] = b"short\nlonger line\nend";
        let mut buffer = Vec::new();
        assert_eq!(read_line_limited(&mut text, &mut buffer, 8).unwrap(), 6);
        assert_eq!(buffer, b"short\n");
        assert!(
            read_line_limited(&mut text, &mut buffer, 8).unwrap_err().to_string().contains("longer than")
        );
        // An endless stream of zeros stops at the limit.
        let mut zeros = io::BufReader::new(io::repeat(0));
        assert!(read_line_limited(&mut zeros, &mut buffer, 1 << 16).is_err());
        assert!(buffer.len() <= (1 << 16) + 1);
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_never_replaced_and_links_are_written_through() {
        use std::os::unix::fs::FileTypeExt;
        let dir = std::env::temp_dir().join(format!("board-devices-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A socket stands for any node that is not a regular file.
        let socket = dir.join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let error = write_atomically(&socket, b"x").unwrap_err();
        assert!(error.to_string().contains("not a regular file (a socket)"), "{error}");
        assert!(std::fs::symlink_metadata(&socket).unwrap().file_type().is_socket(), "still a socket");
        if Path::new("/dev/null").exists() {
            let link = dir.join("null");
            std::os::unix::fs::symlink("/dev/null", &link).unwrap();
            let error = write_atomically(&link, b"x").unwrap_err();
            assert!(error.to_string().contains("a character device"), "{error}");
            assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
        }
        let folder = dir.join("folder");
        std::fs::create_dir_all(&folder).unwrap();
        assert!(write_atomically(&folder, b"x").unwrap_err().to_string().contains("a folder"));
        // A link to a regular file: the file gets the bytes, the link stays.
        let real = dir.join("real.json");
        std::fs::write(&real, b"old").unwrap();
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        // A link to a file not made yet, named relative to the link's folder.
        let dangling = dir.join("dangling.json");
        std::os::unix::fs::symlink("made-later.json", &dangling).unwrap();
        write_atomically(&dangling, b"made").unwrap();
        assert_eq!(std::fs::read(dir.join("made-later.json")).unwrap(), b"made");
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_writer_at_a_time() {
        let path = std::env::temp_dir().join(format!("board-lock-{}.jsonl", std::process::id()));
        let held = lock_output(&path).unwrap();
        let error = lock_output(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::WouldBlock);
        assert!(error.to_string().contains("another program is writing"), "{error}");
        drop(held);
        let again = lock_output(&path).unwrap();
        drop(again);
        let _ = std::fs::remove_file(path.with_extension("jsonl.lock"));
    }

    #[test]
    fn endless_and_long_files_are_refused() {
        if Path::new("/dev/zero").exists() {
            let error = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(error.to_string().contains("larger than 1 MiB"), "{error}");
        }
        let path = std::env::temp_dir().join(format!("board-files-{}", std::process::id()));
        std::fs::write(&path, [b'a'; 10]).unwrap();
        assert_eq!(read_limited(&path, 10).unwrap().len(), 10);
        assert!(read_limited(&path, 9).is_err());
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_to_string(&path).unwrap_err().to_string().contains("not UTF-8"));
        write_atomically(&path, b"whole").unwrap();
        assert_eq!(read(&path).unwrap(), b"whole");
        std::fs::remove_file(&path).unwrap();
        // A write that fails leaves nothing behind.
        let missing = std::env::temp_dir().join("no-such-folder-board-files").join("f");
        assert!(write_atomically(&missing, b"x").is_err());
    }
}
