//! How much an import reads: every reader is bounded, so that a huge file,
//! an endless one (`/dev/zero`) or a packed one that unpacks without end
//! is refused with a message before the memory runs out.

use std::path::Path;

/// The most bytes an import reads from a file (a RenLib library, a Yixin
/// database, CSV), and the most a packed file unpacks to, unless
/// `MNK_MAX_FILE_MIB` raises it.
pub const MAX_IMPORT_BYTES: u64 = 256 << 20;

/// The limit in force: [`MAX_IMPORT_BYTES`], or `MNK_MAX_FILE_MIB` MiB if
/// that is more.
#[must_use]
pub fn import_limit() -> u64 {
    MAX_IMPORT_BYTES.max(play::files::max_file_bytes())
}

/// The bytes of the file to import at `path`, within [`import_limit`].
///
/// # Errors
/// The file cannot be read, or is longer than the limit (the message says
/// so and how to raise it).
pub fn read_import(path: &Path) -> std::io::Result<Vec<u8>> {
    play::files::read_limited(path, import_limit())
}
