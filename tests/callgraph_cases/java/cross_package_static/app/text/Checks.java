package app.text;

public final class Checks {
    public static int requirePositive(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("not positive: " + n);
        }
        return n;
    }
}
