package scrub

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/redact"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The body is redacted whole before it is cut: a secret straddling the cut
// (a registered key, a secret member, a JWT) must not survive as a fragment
// that neither the registry nor a pattern recognises any more.
func TestResultRedactsBeforeCutting(t *testing.T) {
	key := "CutKeyNoPrefix-6hJ2kQ9wZ4"
	redact.Register(key)
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXJfZGVtbyIsImV4cCI6OTk5OTk5OTk5OX0.c2lnbmF0dXJlc2lnbmF0dXJl"
	for _, secret := range []string{
		`"note":"` + key + `"`,
		`"secretKey":"Zz81kd8Ws0PqLm2"`,
		`"message":"` + jwt + `"`,
	} {
		for _, before := range []int{12, 8, 4} {
			pad := strings.Repeat("x", MaxBody-before-len(`{"message":"`)-len(`",`)-len(secret)/2)
			body := `{"message":"` + pad + `",` + secret + `,"statusCode":400}`
			r := vegeta.Result{Code: 400, URL: "http://h/v1/merchant/cards", Body: []byte(body)}
			Result(&r)
			for _, frag := range []string{"CutKeyNo", "Zz81kd8", "eyJhbGciOiJI"} {
				if strings.Contains(string(r.Body), frag) {
					t.Errorf("%s: fragment %q kept: ...%s", secret[:12], frag, tail(r.Body))
				}
			}
			if len(r.Body) > MaxBody+40 {
				t.Errorf("body of %d bytes kept", len(r.Body))
			}
		}
	}
}

func TestResultMasksRegisteredValuesAndUserinfo(t *testing.T) {
	key := "PlainKeyNoPrefix-93kd83"
	redact.RegisterCredentials("mer_scrub", key)
	r := vegeta.Result{
		Code: 401, URL: "http://ops:pw-in-url-77@h/v1/merchant/cards?x=" + key,
		Body:    []byte(`{"message":"bad key ` + key + `","debug":{"headers":{"Authorization":["Basic bWVyX3NjcnViOlBsYWluS2V5Tm9QcmVmaXgtOTNrZDgz"]}}}`),
		Error:   `Get "http://ops:pw-in-url-77@h/v1/merchant/cards": 401 ` + key,
		Headers: map[string][]string{"Content-Type": {"application/json; " + key}},
	}
	Result(&r)
	all := r.URL + "|" + r.Error + "|" + string(r.Body) + "|" + strings.Join(r.Headers["Content-Type"], ",")
	for _, leak := range []string{key, "pw-in-url-77", "bWVyX3NjcnViOlBsYWluS2V5Tm9QcmVmaXgtOTNrZDgz"} {
		if strings.Contains(all, leak) {
			t.Errorf("%q kept in %s", leak, all)
		}
	}
}

func tail(b []byte) string {
	if len(b) > 120 {
		return string(b[len(b)-120:])
	}
	return string(b)
}

func TestResultEscapesWhatVegetaReportPrints(t *testing.T) {
	r := vegeta.Result{Code: 0, URL: "http://h/v1/merchant/cards", Error: "malformed answer \x1b[2K\r✔ all specs passed"}
	Result(&r)
	if strings.ContainsAny(r.Error, "\x1b\r") || !strings.Contains(r.Error, `\x1b[2K\r✔`) {
		t.Errorf("error kept raw control characters: %q", r.Error)
	}
}
