//! Generic helpers shared by the shape code.

/// Upper bound on the number of shapes a single scene may hold.
pub const MAX_SHAPES: usize = 1024;

/// Relative tolerance used by [`approx_eq`].
pub static EPSILON: f64 = 1e-9;

/// Builds a `Vec<Box<dyn Shape>>` from a comma separated list of shapes.
///
/// ```
/// use rustlib::{shapes, Circle, Rect};
/// let scene = shapes![Circle::unit(), Rect::square(2.0)];
/// assert_eq!(scene.len(), 2);
/// ```
#[macro_export]
macro_rules! shapes {
    ($($shape:expr),* $(,)?) => {
        vec![$(Box::new($shape) as Box<dyn $crate::shapes::Shape>),*]
    };
}

/// Checks whether two floats are equal within a relative [`EPSILON`].
pub fn approx_eq(a: f64, b: f64) -> bool {
    (a - b).abs() <= EPSILON * a.abs().max(b.abs()).max(1.0)
}

/// Returns the item with the largest key, or `None` for an empty slice.
///
/// When several items share the largest key the first one wins.
pub fn largest<T, K, F>(items: &[T], key: F) -> Option<&T>
where
    F: Fn(&T) -> K,
    K: PartialOrd,
{
    let mut best: Option<(&T, K)> = None;
    for item in items {
        let k = key(item);
        match &best {
            Some((_, current)) if !(k > *current) => {}
            _ => best = Some((item, k)),
        }
    }
    best.map(|(item, _)| item)
}

/// Adds up `f(item)` over all items.
pub fn sum_by<T>(items: &[T], f: impl Fn(&T) -> f64) -> f64 {
    items.iter().map(f).sum()
}

pub fn clamp<T: PartialOrd>(value: T, lo: T, hi: T) -> T {
    if value < lo {
        lo
    } else if value > hi {
        hi
    } else {
        value
    }
}
