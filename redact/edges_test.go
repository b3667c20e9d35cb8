package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Secrets inside encodings: base64 and hex of text that carries one, twice
// deep, in either alphabet, padded or not, upper- or lower-case hex.
func TestTextLooksIntoEncodedText(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	raw := base64.RawURLEncoding.EncodeToString
	hx := func(s string) string { return hex.EncodeToString([]byte(s)) }
	Register("AdminKey-hex-7q2w9e")
	cases := []struct{ name, in, secret string }{
		{"bearer in a base64 header block", b64([]byte("Authorization: Bearer opaque-4f9a8c7e\r\nAccept: */*\r\n")), "opaque-4f9a8c7e"},
		{"basic inside a base64 echo", raw([]byte(`{"headers":{"Authorization":["Basic ` + b64([]byte("ops:UrlPass-55x")) + `"]}}`)), b64([]byte("ops:UrlPass-55x"))},
		{"a PAN in hex", "body=" + hx("card 4111111111111111 ok"), "4111111111111111"},
		{"a PAN in upper-case hex", strings.ToUpper(hx(`{"pan":"5500005555555559"}`)), "5500005555555559"},
		{"the admin key in hex", "x-key: " + hx("AdminKey-hex-7q2w9e"), "AdminKey-hex-7q2w9e"},
		{"twice deep", b64([]byte(`{"bodyBase64":"` + b64([]byte(`{"cvv":"9876","cardNumber":"4000056655665556"}`)) + `"}`)), "4000056655665556"},
		{"a CVV in base64 JSON", raw([]byte(`{"secure":{"cvv":"4321","expiryMonth":"12"}}`)), "4321"},
	}
	for _, c := range cases {
		got := Text(c.in)
		if got == c.in {
			t.Errorf("%s: nothing masked in %q", c.name, c.in)
			continue
		}
		if strings.Contains(decodeAll(got), c.secret) {
			t.Errorf("%s: %q still readable in %q", c.name, c.secret, decodeAll(got))
		}
	}
	// Identifiers, hashes, timestamps and words are not text in disguise.
	for _, keep := range []string{
		"crd_5d97ff305ef78cc9fb35fb10", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"2026-11-26T00:12:10.738Z", "internationalization of mph1a2b3c-p1-7-card-9f2c", "sbx_2f4780e1954b173acb41b2f9",
		b64([]byte("nothing secret in this sentence at all")),
	} {
		if got := Text(keep); got != keep {
			t.Errorf("Text(%q) = %q", keep, got)
		}
	}
}

// decodeAll decodes every base64 and hex run of s, twice deep, for the
// assertion: a secret must not be readable in any of them.
func decodeAll(s string) string {
	out := s
	for depth := 0; depth < 3; depth++ {
		var b strings.Builder
		for _, f := range strings.FieldsFunc(out, func(r rune) bool { return r > 127 || !isB64Byte(byte(r)) && r != '=' }) {
			for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
				if d, err := e.DecodeString(f); err == nil {
					b.Write(d)
					b.WriteByte(' ')
				}
			}
			if d, err := hex.DecodeString(f); err == nil {
				b.Write(d)
				b.WriteByte(' ')
			}
		}
		out += " " + b.String()
	}
	return out
}

// A CVV-like value next to a card number is masked whatever its member's
// name, and a CVV named in free text is masked whatever the wording.
func TestCVVWhateverItsName(t *testing.T) {
	cases := []struct{ name, in, leak, keep string }{
		{"another member name", `{"cardNumber":"4111 1111 1111 1111","card_verification_value":"123","expiryYear":"2029"}`, `"123"`, "2029"},
		{"a made-up name, a number", `{"pan":"4111111111111111","sc":987,"expiryMonth":"07"}`, "987", `"07"`},
		{"nested card", `{"data":{"card":{"number":"4000056655665556","code":"4412"}}}`, "4412", ""},
		{"free text", "the card's CVV 123 was declined", "123", "declined"},
		{"security code", "security code: 1234 expired", "1234", "expired"},
		{"verification value", "card_verification_value=321&x=1", "321", "x=1"},
		{"card verification value in prose", "card verification value is 654", "654", ""},
		{"restated after a PAN", "charged card 4111111111111111 exp 12/29 code 456 today", "456", "12/29"},
		{"json text after a PAN", `{"cardNumber":"4242424242424242","sc":"789"`, "789", ""},
		{"a PIN in prose", "your voucher PIN is 4821, enjoy", "4821", "enjoy"},
	}
	for _, c := range cases {
		outs := []string{Text(c.in)}
		if strings.HasPrefix(c.in, "{") && strings.HasSuffix(c.in, "}") {
			outs = append(outs, string(JSON([]byte(c.in))))
		}
		for _, got := range outs {
			if strings.Contains(got, c.leak) || c.keep != "" && !strings.Contains(got, c.keep) {
				t.Errorf("%s: %q → %q (must drop %q, keep %q)", c.name, c.in, got, c.leak, c.keep)
			}
		}
	}
	// Without a card number nearby, three digits are just three digits.
	for _, keep := range []string{`{"statusCode":429,"amount":"100","limit":"500"}`, "retry in 120 s", "expected 100, got 250"} {
		if got := Text(keep); got != keep {
			t.Errorf("Text(%q) = %q", keep, got)
		}
	}
}

// A tool that sees other clients' traffic learns their secrets from the
// exchange before it writes anything, and masks them in every form after.
func TestLearnedFromTheWire(t *testing.T) {
	secret, pw, tok := "wireSecretKey9x7z", "basicPw-3x9q", "opaqueWireToken123"
	LearnBody([]byte(`{"merchantId":"mer_wire","secretKey":"` + secret + `"}`))
	LearnHeader(http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte("u1:"+pw))}})
	LearnHeader(http.Header{"X-Echo-Authorization": {"Bearer " + tok}})
	LearnBody([]byte("merchantId=m&secret_key=formSecret-88&note=x"))
	for _, leak := range []string{
		"merchantId=mer_wire&secretKey=" + url.QueryEscape(secret),
		base64.StdEncoding.EncodeToString([]byte("mer_wire:" + secret)),
		base64.RawURLEncoding.EncodeToString([]byte(`{"merchantId":"mer_wire","secretKey":"` + secret + `"}`)),
		"echo " + pw, "token " + tok, hex.EncodeToString([]byte(secret)), "later formSecret-88",
	} {
		got := Text(leak)
		for _, s := range []string{secret, pw, tok, "formSecret-88"} {
			if strings.Contains(decodeAll(got), s) {
				t.Errorf("%q → %q still carries %q", leak, got, s)
			}
		}
	}
	// A form pair named like a secret is masked even unlearned.
	if got := Text("grant=x&client_secret=Zz9-never-seen&api_key=k3y-never-seen"); strings.Contains(got, "never-seen") {
		t.Errorf("form pairs: %q", got)
	}
}

// A document restating one of its secrets elsewhere (hex, base64, another
// member) is masked wherever the restatement stands: its secret members
// are learned before any of it is masked.
func TestJSONLearnsItsSecretsFirst(t *testing.T) {
	for i := 0; i < 5; i++ { // a new code each time: member order varies between walks
		code := fmt.Sprintf("GIFT-PRELEARN-Q%d-ZX34", i)
		doc := `{"aaa":"` + hex.EncodeToString([]byte("code "+code)) + `","b64":"` + base64.StdEncoding.EncodeToString([]byte("voucher "+code+" ok")) + `","voucher":{"code":"` + code + `"}}`
		if got := string(JSON([]byte(doc))); strings.Contains(decodeAll(got), code[:len(code)-4]) {
			t.Fatalf("the restated voucher code is readable in %s", decodeAll(got))
		}
	}
}
