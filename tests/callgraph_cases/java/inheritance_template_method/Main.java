import app.Bag;

// An abstract base class whose concrete method calls a method the subclass overrides
// (AbstractCollection.addAll calling add); the subclass inherits addAll.
public class Main {
    public static void main(String[] args) {
        Bag bag = new Bag();
        bag.addAll(new String[] {"a", "b"});
        System.out.println(bag.isEmpty());
    }
}
