//! Tiny 2D geometry library.
//!
//! Shapes live in [`shapes`]; generic helpers and the `shapes!` macro live
//! in [`util`]. The most useful items are re-exported at the crate root.

pub mod shapes;
pub mod util;

pub use shapes::{Circle, Rect, Shape, ShapeKind};
pub use util::{largest, MAX_SHAPES};

/// Sums the areas of a mixed collection of shapes.
pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    util::sum_by(shapes, |s| s.area())
}

/// Returns the name of the shape with the biggest area, if there is one.
pub fn biggest_name(shapes: &[Box<dyn Shape>]) -> Option<String> {
    largest(shapes, |s| s.area()).map(|s| s.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::approx_eq;

    #[test]
    fn total_area_of_mixed_shapes() {
        let scene = shapes![Circle::unit(), Rect::new(2.0, 3.0)];
        assert!(approx_eq(total_area(&scene), std::f64::consts::PI + 6.0));
    }

    #[test]
    fn biggest_uses_trait_default_name_for_rect() {
        let scene = shapes![Circle::new(0.0, 0.0, 0.5), Rect::square(4.0)];
        assert_eq!(biggest_name(&scene).as_deref(), Some("shape"));
    }

    #[test]
    fn square_kind() {
        assert_eq!(Rect::square(1.0).kind(), ShapeKind::Square);
    }
}
