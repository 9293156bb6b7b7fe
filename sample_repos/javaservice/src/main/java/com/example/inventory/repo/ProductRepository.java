package com.example.inventory.repo;

import com.example.inventory.model.Category;
import com.example.inventory.model.Product;

import java.util.List;
import java.util.Optional;

/**
 * Storage for products, keyed by SKU.
 */
public interface ProductRepository {

    /** Finds the product with the given SKU, if any. */
    Optional<Product> findBySku(String sku);

    /** Returns all products in a category, ordered by name. */
    List<Product> findByCategory(Category category);

    List<Product> findAll();

    /**
     * Inserts or replaces a product.
     *
     * @return the stored product
     */
    Product save(Product product);

    /** Removes a product and reports whether it existed. */
    boolean delete(String sku);

    /** Returns the number of stored products. */
    default int count() {
        return findAll().size();
    }
}
