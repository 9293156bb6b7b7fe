pub struct Encoder {
    shift: u8,
}

impl Encoder {
    pub fn new() -> Encoder {
        Encoder { shift: default_shift() }
    }

    pub fn encode(&self, s: &str) -> Vec<u8> {
        s.bytes().map(|b| b.wrapping_add(self.shift)).collect()
    }
}

fn default_shift() -> u8 {
    1
}
