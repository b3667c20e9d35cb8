package webhookrx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/internal/hooklisten"
)

func postFrom(t *testing.T, from, url string, body []byte) (int, error) {
	t.Helper()
	d := &net.Dialer{Timeout: time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	hc := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	resp, err := hc.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// The receiver binds the URL's host, not every interface.
func TestReceiverBindsTheURLsHost(t *testing.T) {
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := probe.Addr().(*net.TCPAddr).Port
	probe.Close()
	r, err := StartReceiver(hooklisten.Rules{Public: fmt.Sprintf("http://127.0.0.1:%d/hooks", port)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if a := r.ln.Addr().(*net.TCPAddr); !a.IP.Equal(net.ParseIP("127.0.0.1")) || a.Port != port {
		t.Fatalf("listening on %s, want 127.0.0.1:%d", a, port)
	}
	if !strings.HasPrefix(r.URL(), fmt.Sprintf("http://127.0.0.1:%d/hooks/mph-hooks/", port)) {
		t.Fatalf("URL %s", r.URL())
	}
}

// Whatever is posted, the receiver keeps a bounded number of bytes and
// deliveries (the oldest dropped, counted), refuses other paths, methods
// and oversized bodies, and still hands the awaited delivery to its waiter.
func TestReceiverStaysBounded(t *testing.T) {
	r, err := StartReceiver(hooklisten.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make(chan bool, 1)
	go func() {
		_, ok := r.Await(context.Background(), 20*time.Second, func(d Delivery) bool { return bytes.Contains(d.Body, []byte("SIMULATE_mine")) })
		got <- ok
	}()
	time.Sleep(50 * time.Millisecond)
	if code, err := postFrom(t, "", r.URL(), []byte(`{"data":{"reference":"SIMULATE_early"}}`)); err != nil || code != http.StatusOK {
		t.Fatalf("a delivery: %d %v", code, err)
	}
	big := bytes.Repeat([]byte("x"), 200<<10)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if i == 3 && j == 10 {
					_, _ = postFrom(t, "", r.URL(), []byte(`{"data":{"reference":"SIMULATE_mine"}}`))
				}
				_, _ = postFrom(t, "", r.URL(), big)
			}
		}(i)
	}
	wg.Wait()
	if !<-got {
		t.Fatal("the awaited delivery was lost in the flood")
	}
	kept, bytesKept, early := len(r.Deliveries()), 0, false
	for _, d := range r.Deliveries() {
		bytesKept += d.size()
		early = early || bytes.Contains(d.Body, []byte("SIMULATE_early"))
	}
	if !early {
		t.Fatal("a flood of large posts pushed out a small delivery received before it")
	}
	if kept > maxKeptDeliveries || bytesKept > maxKeptBytes || !strings.Contains(r.Dropped(), "deliveries dropped") {
		t.Fatalf("kept %d deliveries, %d bytes; dropped: %q", kept, bytesKept, r.Dropped())
	}
	for _, c := range []struct {
		url  string
		body []byte
		want int
	}{
		{strings.TrimSuffix(r.URL(), r.path) + "/elsewhere", []byte("{}"), http.StatusNotFound},
		{r.URL(), bytes.Repeat([]byte("y"), maxDeliveryBody+1), http.StatusRequestEntityTooLarge},
	} {
		if code, err := postFrom(t, "", c.url, c.body); err != nil || code != c.want {
			t.Fatalf("POST %s: %d %v, want %d", c.url, code, err, c.want)
		}
	}
}

// Senders outside the allow-list are closed before a byte is read;
// half-open connections beyond the bound are closed at once.
func TestReceiverRefusesOtherSendersAndHalfOpenFloods(t *testing.T) {
	r, err := StartReceiver(hooklisten.Rules{AllowFrom: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := postFrom(t, "127.0.0.2", r.URL(), []byte(`{"forged":true}`)); err == nil {
		t.Fatal("a sender outside the allow-list was answered")
	}
	if code, err := postFrom(t, "127.0.0.1", r.URL(), []byte(`{"real":true}`)); err != nil || code != http.StatusOK {
		t.Fatalf("an allowed sender: %d %v", code, err)
	}
	if n := len(r.Deliveries()); n != 1 {
		t.Fatalf("kept %d deliveries, want the allowed one", n)
	}
	addr := r.ln.Addr().String()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := 0; i < hooklisten.MaxConnections+20; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	time.Sleep(200 * time.Millisecond)
	closed := 0
	for _, c := range held {
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	if closed < 20 {
		t.Fatalf("%d of %d half-open connections closed, want at least 20 beyond the bound of %d", closed, len(held), hooklisten.MaxConnections)
	}
	if _, err := hooklisten.AllowedSenders("10.0.0.0/8, 203.0.113.7,::1"); err != nil {
		t.Fatal(err)
	}
	if _, err := hooklisten.AllowedSenders("10.0.0.0/33"); err == nil || !strings.Contains(err.Error(), "10.0.0.0/33") {
		t.Fatalf("a malformed allow-list: %v", err)
	}
}
