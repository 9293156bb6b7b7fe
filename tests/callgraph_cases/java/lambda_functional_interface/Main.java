// A functional interface of the program taking a lambda and a method reference
// (Comparator.comparing / Iterable.forEach style): the lambda body runs when
// the interface method is called.
public class Main {
    interface IntOp {
        int apply(int x);
    }

    static int inc(int x) {
        return x + 1;
    }

    static int twice(IntOp op, int x) {
        return op.apply(op.apply(x));
    }

    public static void main(String[] args) {
        int a = twice(v -> inc(v), 1);
        int b = twice(Main::inc, a);
        System.out.println(b);
    }
}
