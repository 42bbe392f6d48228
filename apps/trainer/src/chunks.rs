//! The trainer's append-only data files (self-play games, labelled
//! positions): a header — the kind's magic, the format, the length of a
//! JSON object and the object — then one chunk per record as it is made —
//! its length, the record in bincode, and a 64-bit checksum — so a file
//! killed in the middle of a write keeps every whole record, and damage is
//! told apart from an interrupted write.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The longest header a file may claim.
const MAX_HEADER_BYTES: u32 = 1 << 20;

/// A header's bytes: `magic`, `format`, the length of `header` as JSON,
/// the JSON.
///
/// # Panics
/// If the header does not serialise (the trainer's always do).
#[must_use]
pub fn header_bytes<H: Serialize>(magic: &[u8], format: u32, header: &H) -> Vec<u8> {
    let json = serde_json::to_vec(header).expect("headers serialise");
    let mut out = magic.to_vec();
    out.extend_from_slice(&format.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out
}

/// A whole file of `kind` (for messages: "a self-play file") read: its
/// header, its bytes, and where the chunks start. The magic is read first,
/// so anything else (`/dev/zero` among them) is refused before the rest.
///
/// # Errors
/// It cannot be read, is not of the kind, is of another format, or its
/// header is damaged.
pub fn read_file<H: DeserializeOwned>(
    path: &Path,
    (magic, format, kind): (&[u8], u32, &str),
) -> Result<(H, Vec<u8>, usize)> {
    let not_ours = || format!("{} is not {kind}", path.display());
    let mut file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::with_capacity(magic.len());
    (&mut file)
        .take(magic.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes != magic {
        bail!(not_ours());
    }
    file.read_to_end(&mut bytes).with_context(|| format!("cannot read {}", path.display()))?;
    let (found, rest) = take_u32(&bytes[magic.len()..]).with_context(not_ours)?;
    if found != format {
        bail!("{} is {kind} of format {found}; this trainer reads format {format}", path.display());
    }
    let (header_len, rest) = take_u32(rest).with_context(not_ours)?;
    if header_len > MAX_HEADER_BYTES {
        bail!("{}: the header claims {header_len} bytes: the file is damaged", path.display());
    }
    let json = rest.get(..header_len as usize).with_context(not_ours)?;
    let header: H =
        serde_json::from_slice(json).with_context(|| format!("{}: the header is damaged", path.display()))?;
    let body_start = magic.len() + 8 + header_len as usize;
    Ok((header, bytes, body_start))
}

/// The longest chunk a record may take (a game of every cell of the
/// largest board takes a few kilobytes).
pub const MAX_CHUNK_BYTES: u32 = 1 << 20;

/// What the bytes at a chunk's start hold.
#[derive(Debug)]
pub enum Chunk<T> {
    /// A record, and the chunk's size in bytes.
    Whole(T, usize),
    /// Fewer bytes than the chunk needs: a write cut short.
    Torn,
    /// A whole chunk that does not read: why.
    Damaged(&'static str),
}

/// A little-endian `u32` and what follows it.
#[must_use]
pub fn take_u32(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let (head, rest) = bytes.split_first_chunk::<4>()?;
    Some((u32::from_le_bytes(*head), rest))
}

/// The chunk at the start of `bytes`.
#[must_use]
pub fn read_chunk<T: DeserializeOwned>(bytes: &[u8]) -> Chunk<T> {
    let Some((len, rest)) = take_u32(bytes) else { return Chunk::Torn };
    if len > MAX_CHUNK_BYTES {
        return Chunk::Damaged("it claims more bytes than any record takes");
    }
    let (Some(body), Some(sum)) = (rest.get(..len as usize), rest.get(len as usize..len as usize + 8)) else {
        return Chunk::Torn;
    };
    if play::files::checksum(body).to_le_bytes() != sum {
        return Chunk::Damaged("its checksum does not match");
    }
    match bincode::serde::decode_from_slice::<T, _>(body, bincode::config::standard()) {
        Ok((record, used)) if used == body.len() => Chunk::Whole(record, 4 + len as usize + 8),
        _ => Chunk::Damaged("it is not a record of this file's kind"),
    }
}

/// The chunk of `record`.
///
/// # Panics
/// If the record does not encode (the trainer's records always do).
#[must_use]
pub fn chunk<T: Serialize>(record: &T) -> Vec<u8> {
    let body = bincode::serde::encode_to_vec(record, bincode::config::standard()).expect("records encode");
    let mut out = Vec::with_capacity(body.len() + 12);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(&play::files::checksum(&body).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_reads_back_and_a_cut_or_flipped_one_is_told_apart() {
        let record = (7_u64, vec![1_u16, 2, 3], Some(0.25_f32));
        let bytes = chunk(&record);
        match read_chunk::<(u64, Vec<u16>, Option<f32>)>(&bytes) {
            Chunk::Whole(back, size) => assert_eq!((back, size), (record.clone(), bytes.len())),
            other => panic!("{other:?}"),
        }
        for cut in 0..bytes.len() {
            assert!(
                matches!(read_chunk::<(u64, Vec<u16>, Option<f32>)>(&bytes[..cut]), Chunk::Torn),
                "{cut}"
            );
        }
        let mut flipped = bytes.clone();
        flipped[6] ^= 1;
        assert!(matches!(read_chunk::<(u64, Vec<u16>, Option<f32>)>(&flipped), Chunk::Damaged(_)));
        let mut huge = bytes;
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(read_chunk::<(u64, Vec<u16>, Option<f32>)>(&huge), Chunk::Damaged(_)));
    }
}
