package webhookrx

import "testing"

// SameURL: a callback_url names the configured URL in any form RFC 3986
// normalisation equates, or followed by more; another URL does not.
func TestSameURL(t *testing.T) {
	const want = "http://127.0.0.1:40639/mph-hooks/e8e3"
	for got, same := range map[string]bool{
		want:                                          true,
		"HTTP://127.0.0.1:40639/mph-hooks/e8e3":       true,
		"http://127.0.0.1:40639/mph-hooks/e8e3/":      true,
		"http://127.0.0.1:40639/mph-hooks/e8e3?t=***": true,
		"http://127.0.0.1:40639/mph-hooks/e8e3x":      false,
		"http://127.0.0.1:40640/mph-hooks/e8e3":       false,
		"https://127.0.0.1:40639/mph-hooks/e8e3":      false,
		"/mph-hooks/e8e3":                             false,
		"":                                            false,
	} {
		if SameURL(got, want) != same {
			t.Errorf("SameURL(%q) = %v, want %v", got, !same, same)
		}
	}
	if !SameURL("https://Hooks.Example.com:443", "https://hooks.example.com/") || !SameURL("http://h.example:80/a", "http://h.example/a") {
		t.Error("default ports and host case are not normalised")
	}
}
