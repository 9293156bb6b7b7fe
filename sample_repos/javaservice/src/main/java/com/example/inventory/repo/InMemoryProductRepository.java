package com.example.inventory.repo;

import com.example.inventory.model.Category;
import com.example.inventory.model.Product;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread-safe {@link ProductRepository} that keeps everything in memory.
 */
public class InMemoryProductRepository implements ProductRepository {
    private static final Comparator<Product> BY_NAME = Comparator.comparing(Product::getName);

    private final Map<String, Product> products = new ConcurrentHashMap<>();

    @Override
    public Optional<Product> findBySku(String sku) {
        return Optional.ofNullable(products.get(InMemoryProductRepository.normalize(sku)));
    }

    @Override
    public List<Product> findByCategory(Category category) {
        return products.values().stream()
                .filter(p -> p.getCategory() == category)
                .sorted(BY_NAME)
                .toList();
    }

    @Override
    public List<Product> findAll() {
        List<Product> all = new ArrayList<>(products.values());
        all.sort(BY_NAME);
        return all;
    }

    @Override
    public Product save(Product product) {
        products.put(normalize(product.getSku()), product);
        return product;
    }

    @Override
    public boolean delete(String sku) {
        return products.remove(InMemoryProductRepository.normalize(sku)) != null;
    }

    /**
     * Normalises a SKU so lookups are case and whitespace insensitive.
     *
     * @param sku raw SKU as typed by a user
     * @return the trimmed, upper-case SKU
     */
    public static String normalize(String sku) {
        if (sku == null || sku.isBlank()) {
            throw new IllegalArgumentException("SKU must not be blank");
        }
        return sku.trim().toUpperCase(Locale.ROOT);
    }
}
