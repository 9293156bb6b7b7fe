package app;

public abstract class Collection {
    public abstract int size();

    public boolean add(String e) {
        throw new UnsupportedOperationException();
    }

    public boolean addAll(String[] items) {
        boolean changed = false;
        for (String e : items) {
            if (add(e)) {
                changed = true;
            }
        }
        return changed;
    }

    public boolean isEmpty() {
        return size() == 0;
    }
}
