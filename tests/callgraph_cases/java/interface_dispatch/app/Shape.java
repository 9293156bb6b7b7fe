package app;

public interface Shape {
    double area();

    String name();
}
