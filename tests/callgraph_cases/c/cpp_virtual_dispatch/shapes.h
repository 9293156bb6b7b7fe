#ifndef SHAPES_H
#define SHAPES_H

class Shape {
public:
    virtual ~Shape() {}
    virtual double area() const = 0;
    virtual double perimeter() const { return 0; }
};

class Rect : public Shape {
public:
    Rect(double w, double h) : w_(w), h_(h) {}
    double area() const override { return w_ * h_; }
    double perimeter() const override { return 2 * (w_ + h_); }

private:
    double w_, h_;
};

class Triangle : public Shape {
public:
    double area() const override { return 1; }
};

#endif
