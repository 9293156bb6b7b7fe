package app;

import java.util.ArrayList;
import java.util.List;

public class Bag extends Collection {
    private final List<String> items = new ArrayList<>();

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public boolean add(String e) {
        return items.add(e);
    }
}
