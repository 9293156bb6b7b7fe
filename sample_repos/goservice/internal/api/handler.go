// Package api exposes the store over HTTP as JSON.
package api

import (
	"encoding/json"
	"errors"
	"log"
	"net/http"

	"example.com/goservice/internal/store"
)

// maxBodyBytes caps the size of request bodies the API accepts.
const maxBodyBytes = 1 << 20

// Handler serves the item endpoints.
type Handler struct {
	store  *store.Store
	logger *log.Logger
}

// itemView is the JSON shape of a single item response.
type itemView struct {
	store.Item
	Total    float64 `json:"total"`
	Currency string  `json:"currency"`
}

// NewHandler wires a Handler to the given store and logger.
func NewHandler(s *store.Store, logger *log.Logger) *Handler {
	return &Handler{store: s, logger: logger}
}

// GetItem handles GET /items/{id}.
func (h *Handler) GetItem(w http.ResponseWriter, r *http.Request) {
	item, err := h.store.Get(r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		h.fail(w, http.StatusNotFound, err)
		return
	}
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err)
		return
	}
	h.writeJSON(w, http.StatusOK, itemView{Item: item, Total: item.Total(), Currency: store.DefaultCurrency})
}

// ListItems handles GET /items and includes the total stock value.
func (h *Handler) ListItems(w http.ResponseWriter, r *http.Request) {
	items := h.store.List()
	names := store.Map(items, func(i store.Item) string { return i.Name })
	h.writeJSON(w, http.StatusOK, map[string]any{
		"items": items,
		"names": names,
		"value": h.store.TotalValue(),
	})
}

// CreateItem handles POST /items with a JSON item body.
func (h *Handler) CreateItem(w http.ResponseWriter, r *http.Request) {
	var item store.Item
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err := dec.Decode(&item); err != nil {
		h.fail(w, http.StatusBadRequest, err)
		return
	}
	if err := h.store.Put(item); err != nil {
		status := http.StatusUnprocessableEntity
		if errors.Is(err, store.ErrFull) {
			status = http.StatusInsufficientStorage
		}
		h.fail(w, status, err)
		return
	}
	h.writeJSON(w, http.StatusCreated, item)
}

// DeleteItem handles DELETE /items/{id}.
func (h *Handler) DeleteItem(w http.ResponseWriter, r *http.Request) {
	if err := h.store.Delete(r.PathValue("id")); err != nil {
		h.fail(w, http.StatusNotFound, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(body); err != nil {
		h.logger.Printf("encode response: %v", err)
	}
}

// fail logs err and writes it as a JSON error with the given status.
func (h *Handler) fail(w http.ResponseWriter, status int, err error) {
	h.logger.Printf("request failed (%d): %v", status, err)
	h.writeJSON(w, status, map[string]string{"error": err.Error()})
}
