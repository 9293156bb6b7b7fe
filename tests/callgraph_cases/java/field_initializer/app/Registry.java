package app;

public class Registry {
    private static final Counter CREATED = Counter.starting(0);
    private final Counter entries = new Counter(0);

    public Registry() {
        CREATED.bump();
    }

    public void register(String name) {
        entries.bump();
    }
}
