//! The body of the trainer's append-only data files (self-play games,
//! labelled positions): one chunk per record as it is made — its length,
//! the record in bincode, and a 64-bit checksum — so a file killed in the
//! middle of a write keeps every whole record, and damage is told apart
//! from an interrupted write.

use serde::Serialize;
use serde::de::DeserializeOwned;

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
    if board::files::checksum(body).to_le_bytes() != sum {
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
    out.extend_from_slice(&board::files::checksum(&body).to_le_bytes());
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
