package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A secret key without the sk_ prefix, as a target may issue: masked by value.
const plainKey = "Zq9Vx2LmPp41RtYw8KcD"

func TestRegisteredValueMaskedInEveryForm(t *testing.T) {
	RegisterCredentials("mer_leaky", plainKey)
	RegisterURL("https://ops:p%40ss-W0rd-77@api.example.test/v1/merchant")
	Register("adm1n-Key-Without-Prefix")
	pair := "mer_leaky:" + plainKey
	body := `{"merchantId":"mer_leaky","secretKey":"` + plainKey + `"}`
	cases := []struct{ name, in, secret string }{
		{"literal in prose", "key is " + plainKey + ".", plainKey},
		{"literal outside a secret member", `{"note":"` + plainKey + `"}`, plainKey},
		{"form value", "merchantId=mer_leaky&secretKey=" + plainKey, plainKey},
		{"inside a base64 body, offset 0", base64.StdEncoding.EncodeToString([]byte(plainKey + `"}`)), plainKey},
		{"inside a base64 body, offset 1", base64.StdEncoding.EncodeToString([]byte(body)), plainKey},
		{"inside a base64 body, offset 2", base64.StdEncoding.EncodeToString([]byte("ab" + body)), plainKey},
		{"url password decoded", "pw p@ss-W0rd-77 seen", "p@ss-W0rd-77"},
		{"url password percent-encoded", "pw p%40ss-W0rd-77 seen", "p%40ss-W0rd-77"},
		{"admin key", "X-Sandbox-Admin-Key=adm1n-Key-Without-Prefix", "adm1n-Key-Without-Prefix"},
	}
	for name, e := range map[string]*base64.Encoding{"std": base64.StdEncoding, "std raw": base64.RawStdEncoding, "url": base64.URLEncoding, "url raw": base64.RawURLEncoding} {
		for _, v := range []struct{ what, plain string }{
			{"secret", plainKey}, {"merchantId:secret", pair}, {"url user:password", "ops:p@ss-W0rd-77"}, {"admin key", "adm1n-Key-Without-Prefix"},
		} {
			enc := e.EncodeToString([]byte(v.plain))
			cases = append(cases,
				struct{ name, in, secret string }{"base64 " + name + " of " + v.what, "x " + enc + " y", enc},
				struct{ name, in, secret string }{"Basic " + name + " of " + v.what, "Authorization: Basic " + enc, enc})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Text(c.in)
			if strings.Contains(got, c.secret) {
				t.Errorf("Text(%q) = %q: %q survived", c.in, got, c.secret)
			}
			if b64 := base64Decodes(got, plainKey); b64 {
				t.Errorf("Text(%q) = %q: still decodes to the key", c.in, got)
			}
		})
	}
}

// base64Decodes reports whether a base64 word of s decodes to text holding secret.
func base64Decodes(s, secret string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" =\"':,", r) }) {
		for _, e := range encodings {
			if b, err := e.DecodeString(w); err == nil && strings.Contains(string(b), secret) {
				return true
			}
		}
	}
	return false
}

func TestShortValuesAreMaskedOnlyAsWholeTokens(t *testing.T) {
	Register("abc", "")
	if got := Text("abc abcdef"); got != Mask+" abcdef" {
		t.Errorf("a 3-byte value: %q", got)
	}
}

func TestLearnedVoucherCodeMaskedInFreeText(t *testing.T) {
	code := "GIFT-7H3K-99QX-L2M4"
	_ = JSON([]byte(`{"data":{"voucher":{"code":"` + code + `","pin":"48213377"}}}`))
	for _, in := range []string{"expected " + code + " to equal X", "pin 48213377 rejected"} {
		got := Text(in)
		if strings.Contains(got, code) || strings.Contains(got, "48213377") {
			t.Errorf("learned value survived in %q", got)
		}
	}
	// Prose in a secret member is not learned.
	_ = JSON([]byte(`{"password":"required field"}`))
	if got := Text("a required field"); got != "a required field" {
		t.Errorf("prose learned: %q", got)
	}
}

// A short learned value is masked as a whole token only: as a substring it
// would corrupt timestamps, ids and amounts (a report then fails to parse).
func TestShortLearnedValueMaskedOnlyAsAToken(t *testing.T) {
	_ = JSON([]byte(`{"voucher":{"pin":"196123"}}`))
	for in, want := range map[string]string{
		`{"timestamp":"2026-11-23T13:16:13.196123Z"}`: `{"timestamp":"2026-11-23T13:16:13.196123Z"}`,
		`card crd_19612345 balance 196123.50`:         `card crd_19612345 balance ***.50`,
		`pin=196123 rejected`:                         `pin=*** rejected`,
		`"196123"`:                                    `"***"`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
