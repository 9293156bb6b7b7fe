package app;

public class Account {
    private final String owner;
    private long balance;

    public Account(String owner) {
        this(owner, 0L);
    }

    public Account(String owner, long opening) {
        this.owner = validate(owner);
        this.balance = opening;
    }

    private static String validate(String owner) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("owner");
        }
        return owner;
    }

    public void deposit(long amount) {
        balance = add(balance, amount);
    }

    private long add(long a, long b) {
        return a + b;
    }
}
