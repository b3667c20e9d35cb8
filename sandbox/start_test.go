package sandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestStartAndClose(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	r, err := Start(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("start took %v", el)
	}
	if !strings.HasPrefix(r.BaseURL, "http://127.0.0.1:") || !strings.HasSuffix(r.BaseURL, "/v1/merchant") ||
		strings.TrimSuffix(r.BaseURL, "/v1/merchant")+"/_sandbox" != r.ControlsURL || r.AdminKey != "sbx_admin_demo" || r.Server == nil {
		t.Fatalf("running: %+v", r)
	}
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Post(r.BaseURL+"/auth/token", "application/json",
		strings.NewReader(`{"merchantId":"mer_demo_alpha","secretKey":"`+alphaTest+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Status string
		Data   struct{ AccessToken string }
	}
	_ = json.NewDecoder(resp.Body).Decode(&env)
	resp.Body.Close()
	if resp.StatusCode != 200 || env.Data.AccessToken == "" {
		t.Fatalf("token over TCP: %d %+v", resp.StatusCode, env)
	}
	// Over real TCP the caller is 127.0.0.1: delta's whitelist refuses it.
	resp, err = c.Post(r.BaseURL+"/auth/token", "application/json",
		strings.NewReader(`{"merchantId":"mer_demo_delta","secretKey":"`+deltaTest+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("delta over TCP: %d", resp.StatusCode)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := r.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if _, err := c.Get(r.ControlsURL + "/capabilities"); err == nil {
		t.Fatal("still serving after Close")
	}

	// Cancelling the context stops a second sandbox too.
	ctx2, cancel2 := context.WithCancel(context.Background())
	r2, err := Start(ctx2, "127.0.0.1:0", Options{BasePath: "/api/v1/merchant"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r2.BaseURL, "/api/v1/merchant") {
		t.Fatalf("base URL %s", r2.BaseURL)
	}
	cancel2()
	done := make(chan error, 1)
	go func() { done <- r2.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("context cancel did not stop the server")
	}
	if _, err := Start(ctx, "127.0.0.1:0", Options{Faults: []string{"bogus"}}); err == nil {
		t.Fatal("unknown fault accepted by Start")
	}
}

func TestDemoMerchants(t *testing.T) {
	ms := DemoMerchants()
	if len(ms) != 3 {
		t.Fatalf("%d demo merchants", len(ms))
	}
	h := newSbx(t, Options{})
	for _, m := range ms {
		if !strings.HasPrefix(m.TestKey, "sk_test_") || (m.LiveKey != "" && !strings.HasPrefix(m.LiveKey, "sk_live_")) {
			t.Errorf("keys of %s", m.ID)
		}
		if m.ID == delta {
			h.ip = "203.0.113.10:1"
		}
		h.token(m.ID, m.TestKey)
		if m.LiveKey != "" {
			h.token(m.ID, m.LiveKey)
		}
		h.ip = "127.0.0.1:1"
	}
}
