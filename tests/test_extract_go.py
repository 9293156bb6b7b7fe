"""Go extraction (workbench/languages/go.scm) on sample_repos/goservice: expected rows
checked by hand against the source. Go modules are directories, methods are qualified by
their receiver type."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

STORE = "internal/store/store.go"
MEMORY = "internal/store/memory.go"
HANDLER = "internal/api/handler.go"
ROUTES = "internal/api/routes.go"
MAIN = "cmd/server/main.go"


def go(path):
    return sample("goservice", path, "go")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    # grouped const/var specs are one symbol each; the comment above the group is no spec's doc
    (STORE, "constant", "internal.store.DefaultCurrency", 14, 14, 'DefaultCurrency = "EUR"', None),
    (STORE, "constant", "internal.store.taxRate", 16, 16, "taxRate = 0.19", None),
    (STORE, "variable", "internal.store.ErrNotFound", 21, 21,
     'ErrNotFound = errors.New("store: item not found")',
     "ErrNotFound is returned when an item id is unknown."),
    (STORE, "struct", "internal.store.Item", 29, 34, "type Item struct", "Item is a single stock-keeping unit."),
    (STORE, "field", "internal.store.Item.Price", 32, 32, 'Price float64 `json:"price"`', None),
    (STORE, "method", "internal.store.Item.Total", 37, 39, "func (i Item) Total() float64",
     "Total returns the gross value of all units of the item, tax included."),
    (STORE, "interface", "internal.store.Repository", 55, 60, "type Repository interface",
     "Repository is the storage abstraction the API layer depends on."),
    (STORE, "method", "internal.store.Repository.Get", 56, 56, "Get(id string) (Item, error)", None),
    (STORE, "struct", "internal.store.Store", 64, 67, "type Store struct",
     "Store is a thread-safe Repository that validates items before saving them to its Backend."),
    (STORE, "function", "internal.store.NewStore", 74, 79, "func NewStore(backend Backend) *Store",
     "NewStore creates a Store on top of backend, or on a fresh in-memory backend when backend is nil."),
    # pointer receiver `(s *Store)`: qualifier Store, receiver kept in the signature
    (STORE, "method", "internal.store.Store.Get", 82, 90, "func (s *Store) Get(id string) (Item, error)",
     "Get returns the item with the given id."),
    (STORE, "function", "internal.store.Map", 131, 137, "func Map[T any, U any](xs []T, f func(T) U) []U",
     "Map applies f to every element of xs and returns the results in order."),
    (STORE, "function", "internal.store.Sum", 140, 146, "func Sum[N ~int | ~float64](xs []N) N",
     "Sum adds up a slice of integers or floats."),
    (MEMORY, "interface", "internal.store.Backend", 4, 9, "type Backend interface",
     "Backend persists items; Store adds validation and locking on top of it."),
    (MEMORY, "method", "internal.store.MemoryBackend.Len", 51, 53, "func (m MemoryBackend) Len() int",
     "Len reports how many items are stored."),
    (MEMORY, "method", "internal.store.MemoryBackend.Remove", 33, 39,
     "func (m *MemoryBackend) Remove(id string) bool", None),
    (HANDLER, "constant", "internal.api.maxBodyBytes", 14, 14, "const maxBodyBytes = 1 << 20",
     "maxBodyBytes caps the size of request bodies the API accepts."),
    (HANDLER, "struct", "internal.api.itemView", 23, 27, "type itemView struct",
     "itemView is the JSON shape of a single item response."),
    (HANDLER, "method", "internal.api.Handler.writeJSON", 87, 93,
     "func (h *Handler) writeJSON(w http.ResponseWriter, status int, body any)", None),
    (MAIN, "variable", "cmd.server.addr", 18, 18,
     'addr = flag.String("addr", ":8080", "address to listen on")', None),
    (MAIN, "function", "cmd.server.loadDemoItems", 45, 51, "func loadDemoItems(b store.Backend)",
     "loadDemoItems seeds the backend with a handful of example products."),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert go(path).row(qualname) == (kind, qualname, start, end, sig, doc)


def test_methods_sit_at_file_level_and_interface_methods_are_declarations():
    st = go(STORE)
    assert st.parent_of("internal.store.Store.Get") == "internal.store"
    assert st.find("internal.store.Repository.Get")["is_declaration"] is True
    assert st.parent_of("internal.store.Repository.Get") == "internal.store.Repository"


def test_blank_and_embedded_names_are_no_symbols():
    assert not any(q.endswith("._") for q in go(STORE).qualnames())      # var _ Repository = ...
    assert {q for q in go(HANDLER).qualnames() if q.startswith("internal.api.itemView.")} == {
        "internal.api.itemView.Total", "internal.api.itemView.Currency"}   # embedded store.Item


def test_exported_names_are_public():
    assert go(STORE).find("internal.store.NewStore")["visibility"] == "public"
    assert go(STORE).find("internal.store.taxRate")["visibility"] == "private"


def test_calls():
    st = go(STORE)
    assert st.call_edges("internal.store.Store.TotalValue") == [
        ("Sum", "internal.store.Sum", "local", 127),
        ("Map", "internal.store.Map", "local", 127),
        ("s.List", None, "unresolved", 127),
    ]
    assert st.calls("internal.store.Store.Get") == [
        "s.mu.RLock", "s.mu.RUnlock", "s.backend.Load", "fmt.Errorf"]
    # `w.Header().Set(...)`: the call on a computed operand keeps its method name
    assert go(HANDLER).calls("internal.api.Handler.writeJSON") == [
        "w.Header", "Set", "w.WriteHeader", "json.NewEncoder", "Encode", "h.logger.Printf"]
    assert go(ROUTES).call_edges("internal.api.NewMux")[-1] == (
        "logRequests", "internal.api.logRequests", "local", 33)
    # package-level var initialisers call from the variable
    assert go(MAIN).calls("cmd.server.addr") == ["flag.String"]


def test_imports():
    assert go(MAIN).import_rows() == [
        ("flag", None, None, 5), ("log", None, None, 6), ("net/http", None, None, 7),
        ("os", None, None, 8), ("time", None, None, 9),
        ("example.com/goservice/internal/api", None, None, 11),
        ("example.com/goservice/internal/store", None, None, 12),
    ]


def test_aliases_groups_generics_inline():
    ex = snippet("pkg/geo/geo.go", """\
package geo

import (
	m "math"
	_ "embed"
)

type (
	Meters float64
	Pair[T any] struct{ A, B T }
)

// Stack is a generic stack.
type Stack[T any] struct {
	items []T
}

// Push adds v on top.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

const Pi, E = m.Pi, m.E
""", "go")
    assert ex.import_rows() == [("math", None, "m", 4), ("embed", None, "_", 5)]
    assert ex.row("pkg.geo.Meters") == ("type", "pkg.geo.Meters", 9, 9, "Meters float64", None)
    assert ex.row("pkg.geo.Pair") == ("struct", "pkg.geo.Pair", 10, 10, "Pair[T any] struct", None)
    assert ex.row("pkg.geo.Stack") == ("struct", "pkg.geo.Stack", 14, 16, "type Stack[T any] struct",
                                       "Stack is a generic stack.")
    assert ex.row("pkg.geo.Stack.Push") == ("method", "pkg.geo.Stack.Push", 19, 19,
                                            "func (s *Stack[T]) Push(v T)", "Push adds v on top.")
    assert ex.row("pkg.geo.Pi") == ("constant", "pkg.geo.Pi", 21, 21, "const Pi, E = m.Pi, m.E", None)
    assert ex.row("pkg.geo.E") == ("constant", "pkg.geo.E", 21, 21, "const Pi, E = m.Pi, m.E", None)
