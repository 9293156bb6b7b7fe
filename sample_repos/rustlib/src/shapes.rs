//! Shape types and the [`Shape`] trait they implement.

use std::f64::consts::PI;
use std::fmt;

/// Anything that has an area and a perimeter.
pub trait Shape {
    /// Returns the area enclosed by the shape.
    fn area(&self) -> f64;

    /// Returns the length of the shape's outline.
    fn perimeter(&self) -> f64;

    /// Returns a human readable name; implementors may override it.
    fn name(&self) -> String {
        String::from("shape")
    }

    /// Ratio of area to perimeter, a rough measure of compactness.
    fn compactness(&self) -> f64 {
        let p = self.perimeter();
        if p == 0.0 {
            0.0
        } else {
            self.area() / p
        }
    }
}

/// The kinds of shape this crate knows about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeKind {
    Circle,
    Rect,
    /// A rectangle whose sides are equal.
    Square,
}

/// A circle given by its centre and radius.
#[derive(Debug, Clone, PartialEq)]
pub struct Circle {
    pub x: f64,
    pub y: f64,
    pub radius: f64,
}

impl Circle {
    /// Creates a circle; a negative radius is clamped to zero.
    pub fn new(x: f64, y: f64, radius: f64) -> Self {
        Circle { x, y, radius: radius.max(0.0) }
    }

    /// The unit circle centred on the origin.
    pub fn unit() -> Self {
        Self::new(0.0, 0.0, 1.0)
    }

    pub fn scaled(&self, factor: f64) -> Circle {
        Circle::new(self.x, self.y, self.radius * factor)
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        PI * self.radius * self.radius
    }

    fn perimeter(&self) -> f64 {
        2.0 * PI * self.radius
    }

    fn name(&self) -> String {
        format!("circle(r={})", self.radius)
    }
}

/// An axis-aligned rectangle.
#[derive(Debug, Clone, PartialEq)]
pub struct Rect {
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// Creates a rectangle from its width and height.
    pub fn new(width: f64, height: f64) -> Self {
        Rect { width, height }
    }

    /// Creates a square with the given side length.
    pub fn square(side: f64) -> Self {
        Self::new(side, side)
    }

    /// Classifies the rectangle as a plain rectangle or a square.
    pub fn kind(&self) -> ShapeKind {
        if crate::util::approx_eq(self.width, self.height) {
            ShapeKind::Square
        } else {
            ShapeKind::Rect
        }
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.width * self.height
    }

    fn perimeter(&self) -> f64 {
        2.0 * (self.width + self.height)
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} rect", self.width, self.height)
    }
}
