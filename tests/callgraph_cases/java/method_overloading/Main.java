// Overloads share their name in the export (PrintStream.println(int) / println(String),
// String.valueOf); one overload delegating to another is a call to that name.
public class Main {
    static String format(int n) {
        return format(Integer.toString(n), 6);
    }

    static String format(String s) {
        return format(s, 6);
    }

    static String format(String s, int width) {
        return pad(s, width);
    }

    static String pad(String s, int width) {
        StringBuilder b = new StringBuilder(s);
        while (b.length() < width) {
            b.insert(0, ' ');
        }
        return b.toString();
    }

    public static void main(String[] args) {
        System.out.println(format(42));
        System.out.println(format("x"));
    }
}
