// Command server runs the goservice HTTP API.
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"time"

	"example.com/goservice/internal/api"
	"example.com/goservice/internal/store"
)

const readHeaderTimeout = 5 * time.Second

var (
	addr     = flag.String("addr", ":8080", "address to listen on")
	seedDemo = flag.Bool("seed", true, "load a few demo items at start-up")
)

func main() {
	flag.Parse()
	logger := log.New(os.Stderr, "goservice ", log.LstdFlags|log.Lmsgprefix)

	backend := store.NewMemoryBackend()
	if *seedDemo {
		loadDemoItems(backend)
	}
	s := store.NewStore(backend)
	h := api.NewHandler(s, logger)

	srv := &http.Server{
		Addr:              *addr,
		Handler:           api.NewMux(h),
		ReadHeaderTimeout: readHeaderTimeout,
	}
	logger.Printf("listening on %s with %d items", *addr, backend.Len())
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		logger.Fatalf("server stopped: %v", err)
	}
}

// loadDemoItems seeds the backend with a handful of example products.
func loadDemoItems(b store.Backend) {
	store.Seed(b,
		store.Item{ID: "kb-01", Name: "Mechanical keyboard", Price: 89.90, Quantity: 12},
		store.Item{ID: "ms-02", Name: "Wireless mouse", Price: 24.50, Quantity: 40},
		store.Item{ID: "mn-27", Name: "27\" monitor", Price: 219.00, Quantity: 5},
	)
}
