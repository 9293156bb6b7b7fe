package app;

public final class Request {
    private final String path;
    private final int timeout;

    private Request(Builder b) {
        this.path = b.path;
        this.timeout = b.timeout;
    }

    public void send() {
        log(path + " " + timeout);
    }

    private static void log(String s) {
        System.out.println(s);
    }

    public static final class Builder {
        private String path = "/";
        private int timeout;

        public Builder path(String p) {
            this.path = p;
            return this;
        }

        public Builder timeout(int t) {
            this.timeout = t;
            return this;
        }

        public Request build() {
            return new Request(this);
        }
    }
}
