// Command echod is the benchmark's bare endpoint: a minimal Go JSON handler
// that speaks just enough of the Merchant Payments API for `mph load` (a
// token exchange and a card listing), so that wrk, the vegeta CLI, k6 and
// `mph load` can be compared on the same cheap endpoint, where the load
// generator, not the server, is the bottleneck. It prints its base URL.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
)

var (
	tokenBody = []byte(`{"status":"success","data":{"accessToken":"bench.token.value","tokenType":"Bearer","expiresIn":900,"environment":"TEST","merchantId":"mer_bench"},"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/auth/token"}`)
	listBody  = []byte(`{"status":"success","data":[{"id":"crd_bench0001","cardType":"VIRTUAL","cardBrand":"VISA","maskedPan":"424242******4242","nameOnCard":"Bench","balanceAmount":1.00,"currency":"USD","status":"ACTIVE","createdStatus":"COMPLETED"}],"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards"}`)
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s/v1/merchant\n", ln.Addr())
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/merchant/auth/token" {
			_, _ = w.Write(tokenBody)
			return
		}
		_, _ = w.Write(listBody)
	})
	_ = http.Serve(ln, h)
}
