package app;

public class Problem {
    private final String message;

    public Problem(String message) {
        this.message = normalize(message);
    }

    static String normalize(String m) {
        return m == null ? "" : m.trim();
    }

    public String describe() {
        return "problem: " + message;
    }
}
