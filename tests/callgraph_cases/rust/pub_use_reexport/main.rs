// A facade module re-exporting items of a private module with `pub use` (log's and
// anyhow's `pub use crate::...` / `pub use self::...`), one renamed on the way.
mod api;
mod imp;

use api::{checksum, Encoder};

fn main() {
    let e = Encoder::new();
    println!("{}", checksum(&e.encode("ab")));
}
