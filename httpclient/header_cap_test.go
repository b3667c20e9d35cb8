package httpclient

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An answer's headers are bounded at MaxHeaderBytes: 2 MiB of headers is
// an error, not 2 MiB held (net/http allows 10 MiB per answer).
func TestAnswerHeadersAreBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		line := strings.Repeat("h", 64<<10)
		for i := 0; i < 32; i++ {
			w.Header().Add("X-Flood", line)
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	resp, err := New(Options{}).Get(srv.URL)
	if err == nil {
		resp.Body.Close()
		t.Fatal("2 MiB of headers were accepted")
	}
	if !strings.Contains(err.Error(), "header") {
		t.Fatalf("want an error about the headers, got %v", err)
	}
}
