#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace geo {

/// Abstract base class for closed 2D shapes.
class Shape {
public:
    virtual ~Shape() = default;

    /// Returns the enclosed area.
    virtual double area() const = 0;

    /// Returns the length of the outline.
    virtual double perimeter() const = 0;

    /// Returns a name for reports; subclasses usually override it.
    virtual std::string name() const { return "shape"; }
};

/// A circle centred on the origin.
class Circle : public Shape {
public:
    explicit Circle(double radius);

    double area() const override;
    double perimeter() const override;
    std::string name() const override;

    double radius() const { return radius_; }

private:
    double radius_;
};

/// An axis-aligned rectangle.
class Rectangle : public Shape {
public:
    Rectangle(double width, double height) : width_(width), height_(height) {}

    double area() const override;
    double perimeter() const override;
    std::string name() const override;

private:
    double width_;
    double height_;
};

/// Immutable wrapper around a single value, with a functional map().
template <typename T>
class Box {
public:
    explicit Box(T value) : value_(std::move(value)) {}

    const T &get() const { return value_; }

    /// Applies f to the wrapped value and boxes the result.
    template <typename F>
    auto map(F f) const {
        using U = decltype(f(value_));
        return Box<U>(f(value_));
    }

private:
    T value_;
};

/// Returns the larger of two values according to operator<.
template <typename T>
const T &max_of(const T &a, const T &b) {
    return (a < b) ? b : a;
}

/// Sums the areas of all shapes.
double total_area(const std::vector<std::unique_ptr<Shape>> &shapes);

namespace util {

/// Converts an angle from degrees to radians.
double to_radians(double degrees);

}  // namespace util

}  // namespace geo
