// Command server is an in-memory sandbox of the payment-collection API
// described in api-reference.md. It uses only the Go standard library.
package main

import (
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func getenv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func main() {
	port := getenv("PORT", "4801")
	defect := os.Getenv("DEFECT")
	switch defect {
	case "", DefectAmountPlusOne, DefectNoAuth, DefectDelete500, DefectDropCallbackQuery:
	default:
		log.Fatalf("unknown DEFECT %q", defect)
	}

	store := NewStore()
	store.AddAccount(1, getenv("SECRET_KEY", "sk_sandbox_independent_go_0001"))
	store.AddAccount(2, getenv("SECOND_SECRET_KEY", "sk_sandbox_independent_go_0002"))

	srv := &http.Server{
		Addr:              net.JoinHostPort("127.0.0.1", port),
		Handler:           NewAPI(store, defect),
		ReadHeaderTimeout: 10 * time.Second,
	}
	if defect != "" {
		log.Printf("DEFECT=%s is active", defect)
	}
	log.Printf("listening on http://%s/v1", srv.Addr)
	log.Fatal(srv.ListenAndServe())
}
