// A generic function bounded by a trait (static dispatch) and a trait default method
// calling a required one (Iterator's provided methods calling `next`).
mod shapes;

use shapes::{Shape, Square};

fn total<T: Shape>(items: &[T]) -> f64 {
    let mut t = 0.0;
    for s in items {
        t += s.area();
    }
    t
}

fn main() {
    let sq = Square::new(2.0);
    println!("{}", sq.describe());
    println!("{}", total(&[sq]));
}
