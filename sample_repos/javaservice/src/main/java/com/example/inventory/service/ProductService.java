package com.example.inventory.service;

import com.example.inventory.annotations.Service;
import com.example.inventory.annotations.Transactional;
import com.example.inventory.model.Category;
import com.example.inventory.model.Product;
import com.example.inventory.repo.InMemoryProductRepository;
import com.example.inventory.repo.ProductRepository;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Business operations on the product catalogue: adding, restocking and reporting.
 */
@Service("productService")
public class ProductService {
    static final int LOW_STOCK_THRESHOLD = 5;

    private final ProductRepository repository;
    private final List<String> auditLog = new ArrayList<>();

    public ProductService(ProductRepository repository) {
        this.repository = repository;
    }

    /**
     * Registers a new product with an empty stock.
     *
     * @throws IllegalArgumentException if the SKU is already taken
     */
    @Transactional
    public Product addProduct(String sku, String name, Category category, BigDecimal price) {
        String key = InMemoryProductRepository.normalize(sku);
        if (repository.findBySku(key).isPresent()) {
            throw new IllegalArgumentException("Duplicate SKU: " + key);
        }
        Product product = new Product(key, name, category, price);
        this.audit("added " + key);
        return repository.save(product);
    }

    /** Adds {@code quantity} units to the stock of an existing product. */
    @Transactional(timeoutSeconds = 10)
    public Product restock(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
        Product product = this.require(sku);
        product.setStock(product.getStock() + quantity);
        this.audit("restocked " + product.getSku() + " +" + quantity);
        return repository.save(product);
    }

    /** Lists products whose stock is below {@link #LOW_STOCK_THRESHOLD}. */
    @Transactional(readOnly = true)
    public List<Product> lowStock() {
        return repository.findAll().stream()
                .filter(p -> p.getStock() < LOW_STOCK_THRESHOLD)
                .toList();
    }

    /**
     * Computes the gross value of all stock in a category.
     * Uses each product's gross price multiplied by its stock level.
     */
    @Transactional(readOnly = true)
    public BigDecimal inventoryValue(Category category) {
        BigDecimal total = BigDecimal.ZERO;
        for (Product product : repository.findByCategory(category)) {
            total = total.add(product.getGrossPrice().multiply(BigDecimal.valueOf(product.getStock())));
        }
        return total;
    }

    public List<String> getAuditLog() {
        return Collections.unmodifiableList(auditLog);
    }

    private Product require(String sku) {
        return repository.findBySku(sku)
                .orElseThrow(() -> new NoSuchElementException("No product with SKU " + sku));
    }

    private void audit(String message) {
        auditLog.add(System.currentTimeMillis() + " " + message);
    }
}
