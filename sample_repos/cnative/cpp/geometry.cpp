#include "geometry.hpp"

#include <numeric>
#include <sstream>

namespace {

constexpr double kPi = 3.14159265358979323846;

// Formats a double with two decimals for shape names.
std::string fixed2(double value) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(2);
    out << value;
    return out.str();
}

}  // namespace

namespace geo {

Circle::Circle(double radius) : radius_(max_of(radius, 0.0)) {}

double Circle::area() const {
    return kPi * radius_ * radius_;
}

double Circle::perimeter() const {
    return 2.0 * kPi * radius_;
}

std::string Circle::name() const {
    return "circle r=" + fixed2(radius_);
}

namespace util {

double to_radians(double degrees) {
    return degrees * kPi / 180.0;
}

}  // namespace util

}  // namespace geo

double geo::Rectangle::area() const {
    return width_ * height_;
}

double geo::Rectangle::perimeter() const {
    return 2.0 * (width_ + height_);
}

std::string geo::Rectangle::name() const {
    return "rectangle " + fixed2(width_) + "x" + fixed2(height_);
}

// Adds up the area of every shape; an empty list has zero area.
double geo::total_area(const std::vector<std::unique_ptr<Shape>> &shapes) {
    return std::accumulate(shapes.begin(), shapes.end(), 0.0,
                           [](double sum, const std::unique_ptr<Shape> &s) { return sum + s->area(); });
}
