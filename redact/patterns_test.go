package redact

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

func TestTextPatterns(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte("mer_x:topsecretvalue"))
	cases := []struct {
		name  string
		in    string
		leaks []string
		keeps []string
	}{
		{"basic in header text", "Authorization: Basic " + basic, []string{basic}, []string{"Authorization: Basic ***"}},
		{"basic in free text", "sent Basic " + basic + " twice", []string{basic}, []string{"Basic ***"}},
		{"token scheme", "Authorization: Token 9f8e7d6c5b4a", []string{"9f8e7d6c5b4a"}, []string{"Token ***"}},
		{"custom scheme", "authorization=HMAC-Key abcdefghijk", []string{"abcdefghijk"}, []string{"HMAC-Key ***"}},
		{"no scheme", "Authorization: abcdefghijk", []string{"abcdefghijk"}, []string{"Authorization: ***"}},
		{"echo header name", "X-Echo-Authorization: Bearer opaque-123456", []string{"opaque-123456"}, []string{"Bearer ***"}},
		{"json member", `{"Authorization":"Bearer abc.def-ghi"}`, []string{"abc.def-ghi"}, []string{`"Authorization":"Bearer ***"`}},
		{"raw header lines in json", `"rawHeaders":"Authorization: Basic ` + basic + `\r\nX-Trace: t1"`, []string{basic}, []string{"Basic ***", "X-Trace: t1"}},
		{"go map", `map[Authorization:[Basic ` + basic + `]]`, []string{basic}, []string{"Basic ***"}},
		{"cut jwt", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIi", []string{"eyJhbGciOiJIUzI1NiJ9", "eyJzdWIi"}, []string{"eyJ***"}},
		{"url userinfo", `GET "https://ops:hunter2hunter@api.example.test/v1/merchant/cards": EOF`, []string{"hunter2hunter"}, []string{"https://ops:***@api.example.test/v1/merchant/cards"}},
		{"url userinfo in json", `{"baseUrl":"http://u:pw12345@h:8080/v1"}`, []string{"pw12345"}, []string{"http://u:***@h:8080/v1"}},
		{"url without password kept", "http://user@h/x", nil, []string{"http://user@h/x"}},
		{"voucher code keeps last 4", `{"voucher":{"code":"GIFT-ABCD-EFGH-WXYZ"}}`, []string{"GIFT-ABCD-EFGH"}, []string{"WXYZ"}},
		{"short voucher code masked whole", `{"voucher":{"code":"AB12CD"}}`, []string{"AB12CD"}, nil},
		{"cut json voucher code", `{"data":{"voucher":{"serialNumber":"S1","code":"GIFT-QQQQ-RRRR-STUV","pin":"8`, []string{"GIFT-QQQQ-RRRR"}, []string{"STUV"}},
		{"securityCode", `{"securityCode":"4312"}`, []string{"4312"}, []string{`"securityCode":"***"`}},
		{"voucherPin", `{"a":{"b":[{"voucherPin":"99881"}]}}`, []string{"99881"}, nil},
		{"password any case", `{"PASSWORD":"letmein!"}`, []string{"letmein!"}, nil},
		{"webhook secret", `{"webhook_secret":"s3cr3t-value"}`, []string{"s3cr3t-value"}, nil},
		{"cvc", `{"cvc":"123"}`, []string{`"123"`}, nil},
		{"status code kept", `{"statusCode":429,"code":"RATE_LIMITED"}`, nil, []string{"429", "RATE_LIMITED"}},
		{"pan kept 6/4", "pan 4111111111111111", []string{"4111111111111111"}, []string{"411111******1111"}},
		{"bearer with a key-like word", "Authorization: Bearer sk_other_9f8e7d", []string{"9f8e7d"}, []string{"Bearer ***"}},
		{"bearer in prose with a key-like word", "sent Bearer sk_other_9f8e7d", []string{"9f8e7d"}, nil},
		{"prose kept", "basic checks for the token endpoint", nil, []string{"basic checks for the token endpoint"}},
		{"curl placeholder kept", `-H 'Authorization: Bearer $TOKEN'`, nil, []string{"Bearer $TOKEN"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outs := []string{Text(c.in)}
			if strings.HasPrefix(c.in, "{") && !strings.HasSuffix(c.in, `"8`) {
				outs = append(outs, string(JSON([]byte(c.in))))
			}
			for _, got := range outs {
				for _, l := range c.leaks {
					if strings.Contains(got, l) {
						t.Errorf("%q leaked in %q", l, got)
					}
				}
				for _, k := range c.keeps {
					if !strings.Contains(got, k) {
						t.Errorf("%q missing from %q", k, got)
					}
				}
			}
		})
	}
}

func TestHeaderMasksEveryCredentialHeader(t *testing.T) {
	h := http.Header{
		"Authorization":        {"Basic bWVyOnNlY3JldA=="},
		"X-Echo-Authorization": {"Bearer opaque-token-1"},
		"Proxy-Authorization":  {"Digest username=x"},
		"X-Sandbox-Admin-Key":  {"adminkey-1"},
		"X-Api-Key":            {"apikey-1"},
		"Cookie":               {"s=1"},
		"X-Auth-Token":         {"tok-1"},
		"Idempotency-Key":      {"idem-1"},
		"Content-Type":         {"application/json"},
	}
	got := Header(h)
	want := map[string]string{
		"Authorization": "Basic ***", "X-Echo-Authorization": "Bearer ***", "Proxy-Authorization": "Digest ***",
		"X-Sandbox-Admin-Key": Mask, "X-Api-Key": Mask, "Cookie": Mask, "X-Auth-Token": Mask,
		"Idempotency-Key": "idem-1", "Content-Type": "application/json",
	}
	for k, w := range want {
		if g := got.Get(k); g != w {
			t.Errorf("%s = %q, want %q", k, g, w)
		}
	}
}

func TestKeepLast4IsIdempotent(t *testing.T) {
	once := KeepLast4("GIFT-ABCD-EFGH-WXYZ")
	if once != "***WXYZ" || KeepLast4(once) != once {
		t.Errorf("KeepLast4: %q then %q", once, KeepLast4(once))
	}
}

func TestJSONHidesAnObjectUnderASecretName(t *testing.T) {
	got := string(JSON([]byte(`{"pin":{"value":"5521"},"card":{"cardNumber":"4111111111111111"}}`)))
	if strings.Contains(got, "5521") || !strings.Contains(got, `"pin":"***"`) || !strings.Contains(got, "411111******1111") {
		t.Errorf("JSON = %s", got)
	}
}
