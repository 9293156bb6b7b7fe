package app;

public class ParseError extends Problem {
    private final int offset;

    public ParseError(String message, int offset) {
        super(message);
        this.offset = offset;
    }

    @Override
    public String describe() {
        return super.describe() + " at " + offset;
    }
}
