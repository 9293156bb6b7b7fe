"""Java extraction (workbench/languages/java.scm) on sample_repos/javaservice: expected
rows checked by hand against the source. Qualnames start at the file's `package`."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

SRC = "src/main/java/com/example/inventory/"
PRODUCT = SRC + "model/Product.java"
CATEGORY = SRC + "model/Category.java"
SERVICE = SRC + "service/ProductService.java"
REPO = SRC + "repo/ProductRepository.java"
MEMREPO = SRC + "repo/InMemoryProductRepository.java"
ANNOT = SRC + "annotations/Service.java"
APP = SRC + "Application.java"
P = "com.example.inventory."


def java(path):
    return sample("javaservice", path, "java")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (PRODUCT, "class", P + "model.Product", 12, 96, "public class Product",
     "A product offered in the catalogue."),
    (PRODUCT, "field", P + "model.Product.sku", 13, 13, "private final String sku", None),
    (PRODUCT, "method", P + "model.Product.getGrossPrice", 75, 77, "public BigDecimal getGrossPrice()",
     "Returns the unit price including the category's VAT."),
    (PRODUCT, "method", P + "model.Product.setStock", 67, 72, "public void setStock(int stock)",
     "Sets the number of units in stock."),
    # annotations: start_line includes them, the signature starts after them
    (PRODUCT, "method", P + "model.Product.equals", 79, 85, "public boolean equals(Object other)", None),
    (CATEGORY, "enum", P + "model.Category", 8, 46, "public enum Category",
     "Product categories and the VAT rate that applies to each of them."),
    (CATEGORY, "method", P + "model.Category.fromLabel", 38, 45,
     "public static Category fromLabel(String label)", "Looks up a category by its label, ignoring case."),
    (SERVICE, "class", P + "service.ProductService", 19, 91, "public class ProductService",
     "Business operations on the product catalogue: adding, restocking and reporting."),
    (SERVICE, "field", P + "service.ProductService.LOW_STOCK_THRESHOLD", 21, 21,
     "static final int LOW_STOCK_THRESHOLD = 5", None),
    (SERVICE, "method", P + "service.ProductService.addProduct", 35, 44,
     "public Product addProduct(String sku, String name, Category category, BigDecimal price)",
     "Registers a new product with an empty stock."),
    (SERVICE, "method", P + "service.ProductService.restock", 47, 56,
     "public Product restock(String sku, int quantity)",
     "Adds {@code quantity} units to the stock of an existing product."),
    (SERVICE, "method", P + "service.ProductService.require", 83, 86,
     "private Product require(String sku)", None),
    (REPO, "interface", P + "repo.ProductRepository", 12, 36, "public interface ProductRepository",
     "Storage for products, keyed by SKU."),
    (REPO, "method", P + "repo.ProductRepository.findBySku", 15, 15,
     "Optional<Product> findBySku(String sku)", "Finds the product with the given SKU, if any."),
    (REPO, "method", P + "repo.ProductRepository.count", 33, 35, "default int count()",
     "Returns the number of stored products."),
    (ANNOT, "interface", P + "annotations.Service", 12, 19, "public @interface Service",
     "Marks a class as an application service that the bootstrap code wires up."),
    (ANNOT, "method", P + "annotations.Service.value", 18, 18, 'String value() default ""',
     "Optional service name; defaults to the simple class name."),
    (APP, "method", P + "Application.seed", 36, 40, "static void seed(ProductService service)",
     "Adds the demo products used by {@link #main(String[])}."),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert java(path).row(qualname) == (kind, qualname, start, end, sig, doc)


def test_overloaded_constructors_are_two_methods():
    p = java(PRODUCT)
    assert p.row(P + "model.Product.Product", 27) == (
        "method", P + "model.Product.Product", 27, 29,
        "public Product(String sku, String name, Category category, BigDecimal price)",
        "Creates a product with no units in stock.")
    assert p.row(P + "model.Product.Product", 31) == (
        "method", P + "model.Product.Product", 31, 37,
        "public Product(String sku, String name, Category category, BigDecimal price, int stock)", None)


def test_annotations_are_decorators():
    assert java(SERVICE).find(P + "service.ProductService")["decorators"] == ['@Service("productService")']
    assert java(SERVICE).find(P + "service.ProductService.restock")["decorators"] == [
        "@Transactional(timeoutSeconds = 10)"]
    assert java(PRODUCT).find(P + "model.Product.equals")["decorators"] == ["@Override"]
    assert java(ANNOT).find(P + "annotations.Service")["decorators"] == [
        "@Documented", "@Retention(RetentionPolicy.RUNTIME)", "@Target(ElementType.TYPE)"]


def test_interface_methods_are_declarations_and_visibility():
    repo = java(REPO)
    assert repo.find(P + "repo.ProductRepository.findBySku")["is_declaration"] is True
    assert repo.find(P + "repo.ProductRepository.count")["is_declaration"] is False
    assert java(SERVICE).find(P + "service.ProductService.require")["visibility"] == "private"
    assert java(SERVICE).find(P + "service.ProductService.repository")["visibility"] == "private"


def test_calls_as_written_self_and_new():
    svc = java(SERVICE)
    assert svc.call_edges(P + "service.ProductService.addProduct") == [
        ("InMemoryProductRepository.normalize", None, "unresolved", 37),
        ("repository.findBySku", None, "unresolved", 38),
        ("isPresent", None, "unresolved", 38),                 # on a computed receiver
        ("IllegalArgumentException", None, "unresolved", 39),  # new IllegalArgumentException(..)
        ("Product", None, "unresolved", 41),
        ("this.audit", P + "service.ProductService.audit", "self", 42),
        ("repository.save", None, "unresolved", 43),
    ]
    app = java(APP)
    assert app.call_edges(P + "Application.main")[2] == ("seed", P + "Application.seed", "local", 22)
    assert "System.out.println" in app.calls(P + "Application.main")
    # `new ArrayList<>()` in a field initializer is a call to ArrayList from the field
    assert svc.calls(P + "service.ProductService.auditLog") == ["ArrayList"]
    assert java(REPO).call_edges(P + "repo.ProductRepository.count") == [
        ("findAll", P + "repo.ProductRepository.findAll", "local", 34),
        ("size", None, "unresolved", 34),
    ]


def test_heritage():
    assert java(MEMREPO).bases(P + "repo.InMemoryProductRepository", "implements") == ["ProductRepository"]


def test_imports():
    assert java(SERVICE).import_rows()[:2] == [
        ("com.example.inventory.annotations", "Service", None, 3),
        ("com.example.inventory.annotations", "Transactional", None, 4),
    ]
    assert java(MEMREPO).import_rows()[-1] == ("java.util.concurrent", "ConcurrentHashMap", None, 12)


def test_static_and_wildcard_imports_records_generic_bases_inline():
    ex = snippet("src/a/b/Shapes.java", """\
package a.b;

import static java.lang.Math.max;
import java.util.*;
import static java.util.Collections.*;

public class Shapes extends Base<String> implements Comparable<Shapes>, Cloneable {
    /** A point. */
    public record Point(int x, int y) implements Serializable {
        Point {
            check(x);
        }
    }

    int a = 1, b;
}
""", "java")
    assert ex.import_rows() == [
        ("java.lang.Math", "max", None, 3),
        ("java.util", "*", None, 4),
        ("java.util.Collections", "*", None, 5),
    ]
    assert ex.bases("a.b.Shapes") == ["Base"]
    assert ex.bases("a.b.Shapes", "implements") == ["Comparable", "Cloneable"]
    assert ex.row("a.b.Shapes.Point") == (
        "record", "a.b.Shapes.Point", 9, 13, "public record Point(int x, int y) implements Serializable",
        "A point.")
    assert ex.row("a.b.Shapes.Point.Point")[:4] == ("method", "a.b.Shapes.Point.Point", 10, 12)
    assert ex.calls("a.b.Shapes.Point.Point") == ["check"]
    # one field per declarator
    assert ex.row("a.b.Shapes.a") == ("field", "a.b.Shapes.a", 15, 15, "int a = 1, b", None)
    assert ex.row("a.b.Shapes.b") == ("field", "a.b.Shapes.b", 15, 15, "int a = 1, b", None)


def test_enum_constants_belong_to_their_enum():
    got = [(s["qualname"].rsplit(".", 2)[-2:], s["start_line"]) for s in java(CATEGORY).symbols
           if s["kind"] == "enum_member"]
    assert got == [(["Category", "BOOKS"], 9), (["Category", "ELECTRONICS"], 10),
                   (["Category", "GROCERIES"], 11), (["Category", "TOYS"], 12)]
