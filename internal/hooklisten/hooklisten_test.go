package hooklisten

import (
	"net"
	"strings"
	"testing"
)

func TestAddressIsTheURLsOwnHost(t *testing.T) {
	for url, want := range map[string]string{
		"":                                  "127.0.0.1:0",
		"https://hooks.example.com/mph":     "hooks.example.com:443",
		"http://203.0.113.5/x":              "203.0.113.5:80",
		"http://[::1]:8080/hooks":           "[::1]:8080",
		"http://127.0.0.1:9000/hooks?a=1#f": "127.0.0.1:9000",
	} {
		if got, _, err := (Rules{Public: url}).Address(); err != nil || got != want {
			t.Errorf("Address(%q) = %q, %v; want %q", url, got, err, want)
		}
	}
	if got, _, _ := (Rules{Public: "https://hooks.example.com/mph", Local: "0.0.0.0:8080"}).Address(); got != "0.0.0.0:8080" {
		t.Errorf("the listen address is not honoured: %q", got)
	}
}

func TestAllowedSenders(t *testing.T) {
	nets, err := AllowedSenders(" 10.0.0.0/8, 203.0.113.7 ,::1")
	if err != nil || len(nets) != 3 {
		t.Fatalf("%v %v", nets, err)
	}
	l := &guarded{allow: nets}
	for ip, want := range map[string]bool{"10.1.2.3": true, "203.0.113.7": true, "203.0.113.8": false, "::1": true, "127.0.0.1": false} {
		if got := l.allowed(&net.TCPAddr{IP: net.ParseIP(ip)}); got != want {
			t.Errorf("%s allowed = %v, want %v", ip, got, want)
		}
	}
	if _, err := AllowedSenders("10.0.0.0/33"); err == nil || !strings.Contains(err.Error(), "10.0.0.0/33") {
		t.Fatalf("a malformed network: %v", err)
	}
	if (&guarded{}).allowed(&net.TCPAddr{IP: net.ParseIP("198.51.100.1")}) != true {
		t.Fatal("without an allow-list every sender is allowed")
	}
}
