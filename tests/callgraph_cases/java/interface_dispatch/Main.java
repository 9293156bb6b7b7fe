import app.Circle;
import app.Shape;
import app.Shapes;

// A call through an interface type: the implementation that runs is the one of the
// object made (Thread.run calling its Runnable target). Every edge below is the
// method that actually runs; Square is written but never made.
public class Main {
    public static void main(String[] args) {
        Shape s = new Circle(2.0);
        System.out.println(s.area());
        System.out.println(Shapes.describe(s));
    }
}
