package app.text;

public final class Strings {
    private Strings() {
    }

    public static String pad(String s, int width) {
        Checks.requirePositive(width);
        return s + repeat(' ', width - s.length());
    }

    static String repeat(char c, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(c);
        }
        return b.toString();
    }
}
