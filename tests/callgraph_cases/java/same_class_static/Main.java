// Static helpers of one class calling each other, the shape of Integer.parseInt
// delegating to a radix overload and a range check.
public class Main {
    public static void main(String[] args) {
        int v = parse(" 42 ");
        report(v);
    }

    static int parse(String s) {
        String t = strip(s);
        checkNotEmpty(t);
        return t.length();
    }

    static String strip(String s) {
        return s.trim();
    }

    static void checkNotEmpty(String s) {
        if (s.isEmpty()) {
            fail("empty");
        }
    }

    static void fail(String why) {
        throw new IllegalArgumentException(why);
    }

    static void report(int v) {
        System.out.println(v);
    }
}
