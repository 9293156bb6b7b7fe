// Package store keeps inventory items and exposes them through a Repository.
package store

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Limits and defaults shared by every store.
const (
	DefaultCurrency = "EUR"
	MaxItems        = 10000
	taxRate         = 0.19
)

var (
	// ErrNotFound is returned when an item id is unknown.
	ErrNotFound = errors.New("store: item not found")
	// ErrInvalid is returned when an item fails validation.
	ErrInvalid = errors.New("store: invalid item")
	// ErrFull is returned when the store already holds MaxItems items.
	ErrFull = errors.New("store: capacity reached")
)

// Item is a single stock-keeping unit.
type Item struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Price    float64 `json:"price"`
	Quantity int     `json:"quantity"`
}

// Total returns the gross value of all units of the item, tax included.
func (i Item) Total() float64 {
	return i.Price * float64(i.Quantity) * (1 + taxRate)
}

// Validate reports whether the item may be stored.
func (i Item) Validate() error {
	switch {
	case strings.TrimSpace(i.ID) == "":
		return fmt.Errorf("%w: empty id", ErrInvalid)
	case i.Price < 0:
		return fmt.Errorf("%w: negative price for %s", ErrInvalid, i.ID)
	case i.Quantity < 0:
		return fmt.Errorf("%w: negative quantity for %s", ErrInvalid, i.ID)
	}
	return nil
}

// Repository is the storage abstraction the API layer depends on.
type Repository interface {
	Get(id string) (Item, error)
	Put(item Item) error
	Delete(id string) error
	List() []Item
}

// Store is a thread-safe Repository that validates items before saving
// them to its Backend.
type Store struct {
	mu      sync.RWMutex
	backend Backend
}

// Compile-time check that *Store satisfies Repository.
var _ Repository = (*Store)(nil)

// NewStore creates a Store on top of backend, or on a fresh in-memory
// backend when backend is nil.
func NewStore(backend Backend) *Store {
	if backend == nil {
		backend = NewMemoryBackend()
	}
	return &Store{backend: backend}
}

// Get returns the item with the given id.
func (s *Store) Get(id string) (Item, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	item, ok := s.backend.Load(id)
	if !ok {
		return Item{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return item, nil
}

// Put validates item and stores it, replacing any previous version.
func (s *Store) Put(item Item) error {
	if err := item.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.backend.Load(item.ID); !exists && len(s.backend.All()) >= MaxItems {
		return ErrFull
	}
	s.backend.Save(item)
	return nil
}

// Delete removes the item with the given id.
func (s *Store) Delete(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.backend.Remove(id) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}

// List returns every item, sorted by id.
func (s *Store) List() []Item {
	s.mu.RLock()
	items := s.backend.All()
	s.mu.RUnlock()
	sort.Slice(items, func(a, b int) bool { return items[a].ID < items[b].ID })
	return items
}

// TotalValue returns the summed Total of all items in the store.
func (s *Store) TotalValue() float64 {
	return Sum(Map(s.List(), Item.Total))
}

// Map applies f to every element of xs and returns the results in order.
func Map[T any, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Sum adds up a slice of integers or floats.
func Sum[N ~int | ~float64](xs []N) N {
	var total N
	for _, x := range xs {
		total += x
	}
	return total
}
