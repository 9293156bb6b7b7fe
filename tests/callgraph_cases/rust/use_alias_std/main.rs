// `use ... as ...` renames, a grouped `use`, and standard-library functions called by
// path (`std::mem::swap`, `std::cmp::max`), as in anyhow's and log's sources.
mod text;

use std::cmp::max;
use std::mem;
use text::{pad as pad_left, width};

fn main() {
    let mut a = String::from("x");
    let mut b = pad_left("y", 3);
    mem::swap(&mut a, &mut b);
    let w = max(width(&a), width(&b));
    println!("{}", w);
}
