package webhookrx

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/merchant-harness/mph/api"
)

func TestVerifySignature(t *testing.T) {
	body := []byte(`{"type":"virtualcard.transaction.authorization"}`)
	mac := func(key string, payload []byte) string {
		m := hmac.New(sha256.New, []byte(key))
		m.Write(payload)
		return hex.EncodeToString(m.Sum(nil))
	}
	now := time.Unix(1_800_000_000, 0)
	ts := strconv.FormatInt(now.Unix(), 10)
	old := strconv.FormatInt(now.Add(-10*time.Minute).Unix(), 10)
	plain := api.SignatureProfile{Header: "X-Sig", Scheme: "hmac-sha256-hex", Prefix: "sha256="}
	bare := plain
	bare.Prefix = ""
	timed := plain
	timed.TimestampHeader, timed.ToleranceSeconds = "X-Ts", 300
	cases := []struct {
		name   string
		sig    api.SignatureProfile
		header map[string]string
		body   []byte
		ok     bool
	}{
		{"valid with prefix", plain, map[string]string{"X-Sig": "sha256=" + mac("k", body)}, body, true},
		{"valid upper-case hex", plain, map[string]string{"X-Sig": "sha256=" + hexUpper(mac("k", body))}, body, true},
		{"valid without prefix", bare, map[string]string{"X-Sig": mac("k", body)}, body, true},
		{"wrong key", plain, map[string]string{"X-Sig": "sha256=" + mac("other", body)}, body, false},
		{"tampered body", plain, map[string]string{"X-Sig": "sha256=" + mac("k", body)}, append([]byte(" "), body...), false},
		{"missing header", plain, nil, body, false},
		{"prefix missing", plain, map[string]string{"X-Sig": mac("k", body)}, body, false},
		{"not hex", plain, map[string]string{"X-Sig": "sha256=zz"}, body, false},
		{"timestamped", timed, map[string]string{"X-Sig": "sha256=" + mac("k", []byte(ts+"."+string(body))), "X-Ts": ts}, body, true},
		{"timestamp outside tolerance", timed, map[string]string{"X-Sig": "sha256=" + mac("k", []byte(old+"."+string(body))), "X-Ts": old}, body, false},
		{"timestamp not signed", timed, map[string]string{"X-Sig": "sha256=" + mac("k", body), "X-Ts": ts}, body, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range c.header {
				h.Set(k, v)
			}
			err := verifySignature(c.sig, Delivery{Header: h, Body: c.body}, "k", now)
			if (err == nil) != c.ok {
				t.Fatalf("verify = %v, want ok %v", err, c.ok)
			}
		})
	}
}

func hexUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			b[i] = c - 32
		}
	}
	return string(b)
}
