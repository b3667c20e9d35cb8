package redact

import (
	"net/http"
	"strings"
	"testing"
)

func TestPAN(t *testing.T) {
	cases := []struct{ in, want string }{
		{"4242 4242 4242 4242", "424242******4242"},
		{"4242424242424242", "424242******4242"},
		{"5555-5555-5555-4444", "555555******4444"},
		{"1234", Mask},
	}
	for _, c := range cases {
		if got := PAN(c.in); got != c.want {
			t.Errorf("PAN(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTextMasksEverySecretKind(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXJfZGVtbyJ9.c2lnbmF0dXJl"
	cases := []struct {
		name, in string
		leaks    []string // must not survive
		keeps    []string // must survive
	}{
		{"grouped pan", `card 4111 1111 1111 1111 ok`, []string{"4111 1111 1111 1111", "1111 1111 1111"}, []string{"411111", "1111 ok"}},
		{"pan in json", `{"cardNumber":"4111 1111 1111 1234","pan":"4111111111111234"}`, []string{"4111 1111 1111 1234", "4111111111111234"}, []string{"411111******1234"}},
		{"cvv", `{"cvv":"123","expiryMonth":"01"}`, []string{`"123"`}, []string{`"cvv":"***"`, `"expiryMonth":"01"`}},
		{"pin", `{"voucher":{"code":"ABCD","pin":"9876"}}`, []string{"9876", "ABCD"}, []string{`"pin":"***"`}},
		{"jwt", "token " + jwt, []string{jwt, "c2lnbmF0dXJl"}, []string{"eyJ***"}},
		{"bearer", "Authorization: Bearer abc.def-ghi", []string{"abc.def-ghi"}, []string{"Bearer ***"}},
		{"opaque bearer", "Authorization: Bearer 9f8e7d6c5b4a", []string{"9f8e7d6c5b4a"}, []string{"Bearer ***"}},
		{"prose about bearer tokens survives", "asks for the bearer token on every endpoint", nil, []string{"bearer token on every endpoint"}},
		{"prose ending a sentence survives", "send the bearer token.", nil, []string{"bearer token."}},
		{"numeric pin", `{"pin":4821,"cvv":123}`, []string{"4821", "123"}, []string{`"pin":"***"`}},
		{"bearer placeholder kept", `-H "Authorization: Bearer $TOKEN"`, nil, []string{"Bearer $TOKEN"}},
		{"secret key", `{"merchantId":"mer_demo_alpha","secretKey":"sk_test_alpha_7f3a9c2e51d84b06"}`, []string{"7f3a9c2e51d84b06"}, []string{"mer_demo_alpha"}},
		{"key in text", "using sk_live_bravo_e29f5b03d7c1a846 now", []string{"e29f5b03d7c1a846"}, []string{"sk_live_***"}},
		{"admin key", "X: sbx_admin_demo", []string{"sbx_admin_demo"}, []string{"sbx_admin_***"}},
		{"timestamps survive", `"2026-11-22T10:00:00.000Z" 1234567`, nil, []string{"2026-11-22T10:00:00.000Z", "1234567"}},
		{"amounts survive", `{"balanceAmount":1000000000.00}`, nil, []string{"1000000000.00"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, got := range []string{Text(c.in), string(JSON([]byte(c.in)))} {
				for _, l := range c.leaks {
					if strings.Contains(got, l) {
						t.Errorf("%q leaked in %q", l, got)
					}
				}
				for _, k := range c.keeps {
					if strings.HasPrefix(c.in, "{") || !strings.HasPrefix(k, `"`) {
						if !strings.Contains(got, k) && !strings.Contains(got, strings.ReplaceAll(k, " ", "")) {
							t.Errorf("%q missing from %q", k, got)
						}
					}
				}
			}
		})
	}
}

func TestJSONKeepsStructure(t *testing.T) {
	in := `{"data":{"cardId":"crd_1","cvv":"321","cardNumber":"4000 1234 5678 9010","nested":[{"accessToken":"x"}]}}`
	got := string(JSON([]byte(in)))
	for _, want := range []string{`"cardId":"crd_1"`, `"cvv":"***"`, `"cardNumber":"400012******9010"`, `"accessToken":"***"`} {
		if !strings.Contains(got, want) {
			t.Errorf("want %s in %s", want, got)
		}
	}
}

func TestHeader(t *testing.T) {
	h := http.Header{}
	h.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig")
	h.Set("X-Sandbox-Admin-Key", "sbx_admin_demo")
	h.Set("X-Merchant-Id", "mer_demo_alpha")
	got := Header(h)
	if got.Get("Authorization") != "Bearer ***" || got.Get("X-Sandbox-Admin-Key") != Mask {
		t.Fatalf("credentials not masked: %v", got)
	}
	if got.Get("X-Merchant-Id") != "mer_demo_alpha" {
		t.Fatalf("merchant id should survive: %v", got)
	}
	if h.Get("Authorization") == "Bearer ***" {
		t.Fatal("Header must not modify its input")
	}
}

func TestID(t *testing.T) {
	if got := ID("crd_8f3a9c2e51d841c2"); got != "crd_8f3a…41c2" {
		t.Errorf("ID = %q", got)
	}
	if got := ID("crd_short"); got != "crd_***" {
		t.Errorf("ID = %q", got)
	}
}
