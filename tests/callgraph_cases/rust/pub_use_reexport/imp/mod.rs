pub mod encoder;

pub fn sum(bytes: &[u8]) -> u32 {
    bytes.iter().map(|b| *b as u32).sum()
}
