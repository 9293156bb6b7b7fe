package store

// Backend persists items; Store adds validation and locking on top of it.
type Backend interface {
	Load(id string) (Item, bool)
	Save(item Item)
	Remove(id string) bool
	All() []Item
}

// MemoryBackend keeps items in a map. It is not safe for concurrent use
// on its own; wrap it in a Store.
type MemoryBackend struct {
	items map[string]Item
}

// NewMemoryBackend returns an empty MemoryBackend.
func NewMemoryBackend() *MemoryBackend {
	return &MemoryBackend{items: make(map[string]Item)}
}

// Load returns the item stored under id and whether it was found.
func (m *MemoryBackend) Load(id string) (Item, bool) {
	item, ok := m.items[id]
	return item, ok
}

// Save stores a copy of item under its ID.
func (m *MemoryBackend) Save(item Item) {
	m.items[item.ID] = item
}

func (m *MemoryBackend) Remove(id string) bool {
	if _, ok := m.items[id]; !ok {
		return false
	}
	delete(m.items, id)
	return true
}

// All returns a snapshot of every stored item in unspecified order.
func (m *MemoryBackend) All() []Item {
	out := make([]Item, 0, len(m.items))
	for _, item := range m.items {
		out = append(out, item)
	}
	return out
}

// Len reports how many items are stored.
func (m MemoryBackend) Len() int {
	return len(m.items)
}

// Seed saves every given item into b; the demo server uses it at start-up.
func Seed(b Backend, items ...Item) {
	for _, item := range items {
		b.Save(item)
	}
}
