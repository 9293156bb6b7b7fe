package com.example.inventory;

import com.example.inventory.model.Category;
import com.example.inventory.model.Product;
import com.example.inventory.repo.InMemoryProductRepository;
import com.example.inventory.repo.ProductRepository;
import com.example.inventory.service.ProductService;

import java.math.BigDecimal;

/**
 * Command-line entry point that seeds a demo catalogue and prints a report.
 */
public final class Application {

    private Application() {
    }

    public static void main(String[] args) {
        ProductRepository repository = new InMemoryProductRepository();
        ProductService service = new ProductService(repository);
        seed(service);

        service.restock("bk-001", 12);
        service.restock("el-042", 2);

        System.out.println("Low stock:");
        for (Product product : service.lowStock()) {
            System.out.println("  " + product);
        }
        System.out.printf("Electronics value: %s EUR%n", service.inventoryValue(Category.ELECTRONICS));
        System.out.printf("%d products, %d audit entries%n", repository.count(), service.getAuditLog().size());
    }

    /** Adds the demo products used by {@link #main(String[])}. */
    static void seed(ProductService service) {
        service.addProduct("bk-001", "The Pragmatic Gardener", Category.BOOKS, new BigDecimal("24.90"));
        service.addProduct("el-042", "USB-C Hub", Category.ELECTRONICS, new BigDecimal("39.00"));
        service.addProduct("ty-007", "Wooden Train Set", Category.fromLabel("toys"), new BigDecimal("54.50"));
    }
}
