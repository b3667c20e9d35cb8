package scrub

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/redact"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The body is redacted whole before it is cut: a JWT straddling the cut
// must not survive as a fragment no pattern recognises any more.
func TestResultRedactsBeforeCutting(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXJfZGVtbyIsImV4cCI6OTk5OTk5OTk5OX0.c2lnbmF0dXJlc2lnbmF0dXJl"
	for _, pad := range []int{MaxBody - 40, MaxBody - 25, MaxBody - 10, MaxBody - 4} {
		msg := strings.Repeat("x", pad-len(`{"message":"`))
		body := `{"message":"` + msg + ` ` + jwt + `","statusCode":400}`
		r := vegeta.Result{Code: 400, URL: "http://h/v1/merchant/cards", Body: []byte(body)}
		Result(&r)
		for _, frag := range []string{"eyJhbGciOiJI", "c2lnbmF0dXJl", "eyJzdWIiOiJ"} {
			if strings.Contains(string(r.Body), frag) {
				t.Errorf("pad %d: JWT fragment %q kept: ...%s", pad, frag, tail(r.Body))
			}
		}
		if len(r.Body) > MaxBody+40 {
			t.Errorf("pad %d: body of %d bytes kept", pad, len(r.Body))
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
