package app;

public class Counter {
    private int n;

    public Counter(int start) {
        n = start;
    }

    public static Counter starting(int start) {
        return new Counter(start);
    }

    public void bump() {
        n++;
    }
}
