package com.example.inventory.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A product offered in the catalogue.
 * <p>
 * Everything except the stock level is fixed at construction time.
 */
public class Product {
    private final String sku;
    private final String name;
    private final Category category;
    private final BigDecimal price;
    private int stock;

    /**
     * Creates a product with no units in stock.
     *
     * @param sku      unique stock keeping unit
     * @param name     display name
     * @param category category used for tax and browsing
     * @param price    net unit price
     */
    public Product(String sku, String name, Category category, BigDecimal price) {
        this(sku, name, category, price, 0);
    }

    public Product(String sku, String name, Category category, BigDecimal price, int stock) {
        this.sku = Objects.requireNonNull(sku, "sku");
        this.name = Objects.requireNonNull(name, "name");
        this.category = Objects.requireNonNull(category, "category");
        this.price = price.setScale(2, RoundingMode.HALF_UP);
        setStock(stock);
    }

    /** Returns the stock keeping unit. */
    public String getSku() {
        return sku;
    }

    /** Returns the display name. */
    public String getName() {
        return name;
    }

    public Category getCategory() {
        return category;
    }

    /** Returns the net unit price, rounded to cents. */
    public BigDecimal getPrice() {
        return price;
    }

    public int getStock() {
        return stock;
    }

    /**
     * Sets the number of units in stock.
     *
     * @param stock new stock level, must not be negative
     */
    public void setStock(int stock) {
        if (stock < 0) {
            throw new IllegalArgumentException("stock must not be negative: " + stock);
        }
        this.stock = stock;
    }

    /** Returns the unit price including the category's VAT. */
    public BigDecimal getGrossPrice() {
        return price.multiply(BigDecimal.ONE.add(category.getVatRate())).setScale(2, RoundingMode.HALF_UP);
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        return other instanceof Product that && sku.equals(that.sku);
    }

    @Override
    public int hashCode() {
        return sku.hashCode();
    }

    @Override
    public String toString() {
        return String.format("%s (%s, %s x %d)", name, sku, price, stock);
    }
}
