import app.ParseError;

// super(...) to the base constructor and super.m() to the overridden method, the
// shape of exception subclasses and toString overrides in java.util.
public class Main {
    public static void main(String[] args) {
        ParseError e = new ParseError("bad token", 7);
        System.out.println(e.describe());
    }
}
