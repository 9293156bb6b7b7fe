import app.Registry;

// Field initialisers creating collaborators (a `private final Foo f = new Foo()` field
// and a static field from a factory method): their calls belong to the class.
public class Main {
    public static void main(String[] args) {
        Registry r = new Registry();
        r.register("a");
    }
}
