package com.example.inventory.model;

import java.math.BigDecimal;

/**
 * Product categories and the VAT rate that applies to each of them.
 */
public enum Category {
    BOOKS("Books", new BigDecimal("0.07")),
    ELECTRONICS("Electronics", new BigDecimal("0.19")),
    GROCERIES("Groceries", new BigDecimal("0.07")),
    TOYS("Toys", new BigDecimal("0.19"));

    private final String label;
    private final BigDecimal vatRate;

    Category(String label, BigDecimal vatRate) {
        this.label = label;
        this.vatRate = vatRate;
    }

    /** Returns the human readable name shown in the shop. */
    public String getLabel() {
        return label;
    }

    public BigDecimal getVatRate() {
        return vatRate;
    }

    /**
     * Looks up a category by its label, ignoring case.
     *
     * @param label the label to look for, e.g. {@code "books"}
     * @return the matching category
     * @throws IllegalArgumentException if no category has that label
     */
    public static Category fromLabel(String label) {
        for (Category category : values()) {
            if (category.label.equalsIgnoreCase(label.trim())) {
                return category;
            }
        }
        throw new IllegalArgumentException("Unknown category: " + label);
    }
}
