pub use crate::imp::encoder::Encoder;
pub use crate::imp::sum as checksum;
