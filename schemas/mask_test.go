package schemas

import (
	"errors"
	"strings"
	"testing"
)

// A validation failure must never leak a full PAN, a CVV, a PIN, a token or a
// secret key: not in Error(), not in any Violation field.
func TestValidationErrorNeverLeaksSecrets(t *testing.T) {
	const pin = "4821"
	const code = "AMZN-7Q2F-KX9D"
	cases := []struct {
		name, schema string
		body         []byte
		secrets      []string
	}{
		{"maskedPan shows every digit", CardResponse, mustJSON(t, envA(with(card(), "/maskedPan", testPANRaw))), []string{testPANRaw}},
		{"maskedPan is the grouped PAN", Card, mustJSON(t, with(card(), "/maskedPan", testPAN)), []string{testPAN}},
		{"cardNumber not grouped", SecureResponse, mustJSON(t, envA(with(secure(), "/cardNumber", testPANRaw))), []string{testPANRaw, testCVV}},
		{"pan with dashes", SecureDetails, mustJSON(t, with(secure(), "/pan", "4111-1111-1111-1234")), []string{"4111-1111-1111-1234", testPANRaw}},
		{"cardNumber as a number", SecureDetails, mustJSON(t, with(secure(), "/cardNumber", 4111111111111234)), []string{testPANRaw}},
		{"cvv as a number", SecureDetails, mustJSON(t, with(secure(), "/cvv", 739)), []string{testCVV}},
		{"secure details as an array", SecureResponse, mustJSON(t, envA([]any{secure()})), []string{testPAN, testCVV}},
		{"secure details in the wrong envelope", SecureResponse, mustJSON(t, with(secure(), "/status", "ok")), []string{testPAN, testCVV}},
		{"secure details under an unexpected data type", CardListResponse, mustJSON(t, envA([]any{with(secure(), "/status", "REVEALED"), secure()})), []string{testPAN, testCVV}},
		{"token in an array", TokenResponse, mustJSON(t, envA([]any{token()})), []string{testJWT, "c2lnbmF0dXJlLXNpZ25hdHVyZQ"}},
		{"token with wrong tokenType", TokenResponse, mustJSON(t, envA(with(token(), "/expiresIn", "900"))), []string{testJWT}},
		{"token with a bad character", AccessToken, mustJSON(t, with(token(), "/accessToken", testJWT+"=")), []string{testJWT}},
		{"opaque token", AccessToken, mustJSON(t, with(token(), "/accessToken", "opaque-secret-token-value")), []string{"opaque-secret-token-value"}},
		{"token where the message is", ErrorEnvelope, mustJSON(t, with(errEnv(), "/message", obj{"token": testJWT})), []string{testJWT}},
		{"secret key echoed", ErrorEnvelope, mustJSON(t, with(with(errEnv(), "/message", 1), "/secretKey", testSecret)), []string{testSecret}},
		{"secret key as a message value", EnvelopeB, mustJSON(t, with(envB(obj{}), "/message", []any{"key " + testSecret})), []string{testSecret}},
		{"PAN in an error message", ErrorEnvelope, mustJSON(t, with(errEnv(), "/message", obj{"m": "card " + testPAN + " declined"})), []string{testPAN}},
		{"voucher pin and code, order as a string status", GiftOrder, mustJSON(t, with(giftOrder(), "/voucher/pin", 4821)), []string{pin}},
		{"voucher a list", GiftOrder, mustJSON(t, with(giftOrder(), "/voucher", []any{obj{"code": code, "pin": pin}})), []string{pin, code}},
		{"not JSON with secrets", SecureResponse, []byte(`{"cvv":"739","cardNumber":"` + testPAN + `","accessToken":"` + testJWT + `"`), []string{testCVV, testPAN, testJWT}},
		{"not JSON, bearer header echoed", SecureResponse, []byte(`Authorization: Bearer opaque-secret-token-value`), []string{"opaque-secret-token-value"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.schema, c.body)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("want *ValidationError, got %v", err)
			}
			texts := []string{err.Error()}
			for _, v := range ve.Violations {
				texts = append(texts, v.Pointer, v.Rule, v.Message, v.Value, v.Location)
			}
			for _, s := range c.secrets {
				for _, txt := range texts {
					if strings.Contains(txt, s) {
						t.Errorf("secret %q leaked in %q", s, txt)
					}
				}
			}
			// CVVs are short: check the rendered value itself.
			if strings.Contains(err.Error(), `"cvv":"739"`) || strings.Contains(err.Error(), `"cvv":739`) {
				t.Errorf("cvv leaked: %v", err)
			}
		})
	}
}

// The masked forms still tell a reader what was wrong.
func TestMaskedValuesStayUseful(t *testing.T) {
	err := Validate(Card, mustJSON(t, with(card(), "/maskedPan", testPANRaw)))
	if err == nil || !strings.Contains(err.Error(), `/maskedPan: does not match pattern`) ||
		!strings.Contains(err.Error(), `"411111[6 digits masked]1234"`) {
		t.Fatalf("unexpected report: %v", err)
	}
	err = Validate(SecureDetails, mustJSON(t, with(secure(), "/cvv", 739)))
	if err == nil || !strings.Contains(err.Error(), `/cvv: wrong type: got number, want string (rule type, value "***")`) {
		t.Fatalf("unexpected report: %v", err)
	}
	// Ordinary values are shown as they are.
	err = Validate(WebhookSimulationResponse, mustJSON(t, with(webhook(), "/data/event_type", "virtualcard.transaction.reversal")))
	if err == nil || !strings.Contains(err.Error(), `value "virtualcard.transaction.reversal"`) ||
		!strings.Contains(err.Error(), `"virtualcard.transaction.authorization"`) {
		t.Fatalf("unexpected report: %v", err)
	}
	err = Validate(EnvelopeA, mustJSON(t, with(envA(obj{}), "/timestamp", "2026-11-22 03:16:18")))
	if err == nil || !strings.Contains(err.Error(), `value "2026-11-22 03:16:18"`) {
		t.Fatalf("unexpected report: %v", err)
	}
}

func TestLongValuesTruncated(t *testing.T) {
	long := strings.Repeat("é", 500)
	err := Validate(Card, mustJSON(t, with(card(), "/id", long)))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	v := ve.Violations[0].Value
	if len(v) > maxValueLen+len("…") || !strings.HasSuffix(v, "…") {
		t.Errorf("value not truncated: %d bytes", len(v))
	}
}

func TestMaskText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"card 4111 1111 1111 1234 declined", "card 411111[6 digits masked]1234 declined"},
		{"4111-1111-1111-1234", "411111[6 digits masked]1234"},
		{"5555555555554444", "555555[6 digits masked]4444"},
		{"token " + testJWT, "token eyJ***"},
		{"Bearer abc.def", "Bearer ***"},
		{testSecret, "sk_test_***"},
		{`{"cvv": "739"}`, `{"cvv": "***"}`},
		{`{"pin":4821}`, `{"pin":"***"}`},
		// Left alone: timestamps, short numbers, amounts, event kinds.
		{"2026-11-22T03:16:18.123Z", "2026-11-22T03:16:18.123Z"},
		{"1234567 9974.00", "1234567 9974.00"},
		{"virtualcard.transaction.authorization", "virtualcard.transaction.authorization"},
		{"411111******1234", "411111******1234"},
	}
	for _, c := range cases {
		if got := maskText(c.in); got != c.want {
			t.Errorf("maskText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
