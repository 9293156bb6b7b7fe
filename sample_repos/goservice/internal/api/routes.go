package api

import (
	"log"
	"net/http"
	"time"
)

// Route describes one endpoint: the ServeMux pattern and its handler.
type Route struct {
	Pattern string
	Handle  http.HandlerFunc
}

// Routes lists every endpoint served by h, in registration order.
func (h *Handler) Routes() []Route {
	return []Route{
		{Pattern: "GET /items", Handle: h.ListItems},
		{Pattern: "GET /items/{id}", Handle: h.GetItem},
		{Pattern: "POST /items", Handle: h.CreateItem},
		{Pattern: "DELETE /items/{id}", Handle: h.DeleteItem},
		{Pattern: "GET /healthz", Handle: healthz},
	}
}

// NewMux registers all of h's routes on a fresh ServeMux, wrapped in
// request logging.
func NewMux(h *Handler) http.Handler {
	mux := http.NewServeMux()
	for _, rt := range h.Routes() {
		mux.HandleFunc(rt.Pattern, rt.Handle)
	}
	return logRequests(h.logger, mux)
}

func healthz(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("ok\n"))
}

// logRequests logs method, path and duration of every request.
func logRequests(logger *log.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next.ServeHTTP(w, r)
		logger.Printf("%s %s %s", r.Method, r.URL.Path, time.Since(start).Round(time.Microsecond))
	})
}
