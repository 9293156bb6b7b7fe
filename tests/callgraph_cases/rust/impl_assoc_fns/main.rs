// An inherent `impl` with an associated constructor, `Self::` helpers and methods
// calling each other through `self` (log's `impl Level { fn from_usize .. fn max }`).
struct Level {
    n: usize,
}

impl Level {
    fn new(n: usize) -> Self {
        Level { n: Self::clamp(n) }
    }

    fn clamp(n: usize) -> usize {
        if n > 5 { 5 } else { n }
    }

    fn max() -> Level {
        Level::new(5)
    }

    fn is_max(&self) -> bool {
        self.n == self.value_of_max()
    }

    fn value_of_max(&self) -> usize {
        Self::max().n
    }
}

fn main() {
    let l = Level::new(3);
    println!("{}", l.is_max());
}
