// Closures: one bound to a name and called, one passed to a generic function that
// calls it (`F: Fn(i32) -> i32`, the shape of Option::map_or_else / with_context).
fn offset(x: i32) -> i32 {
    x + 10
}

fn twice<F: Fn(i32) -> i32>(f: F, x: i32) -> i32 {
    f(f(x))
}

fn main() {
    let add = |x: i32| offset(x) + 1;
    let a = add(2);
    let b = twice(|v| offset(v), a);
    println!("{}", b);
}
