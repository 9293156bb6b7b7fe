import app.Account;

// Overloaded constructors delegating with this(...), as ArrayList() / ArrayList(int)
// and Thread's constructors do; `new` runs the constructor.
public class Main {
    public static void main(String[] args) {
        Account a = new Account("ann");
        a.deposit(10);
    }
}
