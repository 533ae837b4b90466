//! A state hash that is the same on every machine.

use serde::Serialize;

/// FNV-1a over the value's JSON serialization.
///
/// `std`'s hashers are seeded per process; this one is stable, so a match record can carry
/// the hash its replay must reach. Types hashed this way must serialize deterministically
/// (no `HashMap`s).
#[must_use]
pub fn stable_hash<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut writer = Fnv1a(0xcbf2_9ce4_8422_2325);
    // Writing to an in-memory hasher cannot fail for our own plain data types.
    let _ = serde_json::to_writer(&mut writer, value);
    writer.0
}

struct Fnv1a(u64);

impl std::io::Write for Fnv1a {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A hash written as the records show it: `0x` and 16 hex digits.
#[must_use]
pub fn format_hash(hash: u64) -> String {
    format!("{hash:#018x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_values() {
        assert_eq!(stable_hash(&(1u8, "a")), stable_hash(&(1u8, "a")));
        assert_ne!(stable_hash(&1u8), stable_hash(&2u8));
        // The published FNV-1a 64 test vector for "a".
        let mut fnv = Fnv1a(0xcbf2_9ce4_8422_2325);
        std::io::Write::write_all(&mut fnv, b"a").unwrap();
        assert_eq!(format_hash(fnv.0), "0xaf63dc4c8601ec8c");
    }
}
