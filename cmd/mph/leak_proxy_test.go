package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// leakProxy sits in front of the echoing sandbox. It lets the harness use a
// secret key WITHOUT the sk_ prefix for a demo merchant (the sandbox only
// knows the demo key: the proxy swaps one for the other both ways, in every
// encoding), and it records every secret the target hands the harness (PANs,
// CVVs, voucher codes and PINs, tokens, webhook secrets), so the leak test
// can grep the artifacts for each.
type leakProxy struct {
	srv  *httptest.Server
	toSB *strings.Replacer // harness form -> sandbox form
	back *strings.Replacer // sandbox form -> harness form

	mu   sync.Mutex
	seen map[string]map[string]bool // kind -> values
	also *leakProxy                 // another proxy whose values count too

	// everyEncoding makes the target more hostile (leak_encodings_test.go):
	// every JSON answer also reflects the request in hex and in base64 of
	// base64, and restates its card data and vouchers under other names,
	// in prose and in hex.
	everyEncoding atomic.Bool
	sent          sync.Map // X-Leak-Sent -> *sent
	sentSeq       atomic.Int64
}

// sent is the request as the harness sent it, for everyEncoding.
type sent struct {
	url, headers string
	body         []byte
}

func newLeakProxy(t *testing.T, sandboxRoot, merchant, demoKey, plainKey string) *leakProxy {
	t.Helper()
	target, err := url.Parse(sandboxRoot)
	if err != nil {
		t.Fatal(err)
	}
	var toSB, back []string
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		for _, p := range [][2]string{{merchant + ":" + plainKey, merchant + ":" + demoKey}, {plainKey, demoKey}} {
			h, s := e.EncodeToString([]byte(p[0])), e.EncodeToString([]byte(p[1]))
			toSB, back = append(toSB, h, s), append(back, s, h)
		}
	}
	toSB, back = append(toSB, plainKey, demoKey), append(back, demoKey, plainKey)
	p := &leakProxy{toSB: strings.NewReplacer(toSB...), back: strings.NewReplacer(back...), seen: map[string]map[string]bool{}}
	rp := &httputil.ReverseProxy{ErrorLog: log.New(io.Discard, "", 0)} // clients hanging up mid-answer are expected
	rp.Rewrite = func(pr *httputil.ProxyRequest) {
		// As NewSingleHostReverseProxy's director: the target's URL, the
		// client's Host, the client in X-Forwarded-For.
		pr.SetURL(target)
		pr.Out.Host = pr.In.Host
		pr.SetXForwarded()
		r := pr.Out
		if p.everyEncoding.Load() {
			var hb strings.Builder
			_ = r.Header.Write(&hb)
			var b []byte
			if r.Body != nil {
				b, _ = io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(b))
			}
			// Keyed by a header of its own: the request itself is left as
			// ReverseProxy built it.
			id := strconv.FormatInt(p.sentSeq.Add(1), 10)
			p.sent.Store(id, &sent{url: r.URL.String(), headers: hb.String(), body: b})
			r.Header.Set("X-Leak-Sent", id)
		}
		for k, vs := range r.Header {
			for i, v := range vs {
				r.Header[k][i] = p.toSB.Replace(v)
			}
		}
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			b = []byte(p.toSB.Replace(string(b)))
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
			r.Header.Set("Content-Length", strconv.Itoa(len(b)))
		}
	}
	rp.ModifyResponse = func(resp *http.Response) error {
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		p.record(b)
		b = []byte(p.back.Replace(string(b)))
		if v, ok := p.sent.LoadAndDelete(resp.Request.Header.Get("X-Leak-Sent")); ok {
			b = reflectEveryEncoding(b, v.(*sent))
		}
		for k, vs := range resp.Header {
			for i, v := range vs {
				resp.Header[k][i] = p.back.Replace(v)
			}
		}
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	p.srv = httptest.NewServer(rp)
	t.Cleanup(p.srv.Close)
	return p
}

// record keeps the secrets of one answer, by member name at any nesting.
func (p *leakProxy) record(body []byte) {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var walk func(parent, key string, v any)
	walk = func(parent, key string, v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				walk(key, k, x)
			}
		case []any:
			for _, x := range t {
				walk(parent, key, x)
			}
		case string:
			kind := ""
			switch {
			case key == "cardNumber":
				kind = "pan"
			case key == "cvv":
				kind = "cvv"
			case key == "code" && parent == "voucher":
				kind = "voucher code"
			case key == "pin":
				kind = "pin"
			case key == "accessToken":
				kind = "token"
			case key == "secret":
				kind = "webhook secret"
			}
			if kind != "" && t != "" {
				if p.seen[kind] == nil {
					p.seen[kind] = map[string]bool{}
				}
				p.seen[kind][t] = true
			}
		}
	}
	walk("", "", v)
}

func (p *leakProxy) values(kind string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for v := range p.seen[kind] {
		out = append(out, v)
	}
	if p.also != nil {
		out = append(out, p.also.values(kind)...)
	}
	return out
}
