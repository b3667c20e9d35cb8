package redact

import "testing"

// A configured secret shorter than MinSecretLen is still never printed: as
// a whole token when it is one, wherever it stands when it is not.
func TestShortSecretsAreMasked(t *testing.T) {
	Register("q7z", "a!b")
	cases := []struct{ in, want string }{
		{"secretKey=q7z", "secretKey=" + Mask},
		{`{"secretKey":"q7z"}`, `{"secretKey":"` + Mask + `"}`},
		{"q7zebra and xq7z stay", "q7zebra and xq7z stay"},
		{"key a!b in text", "key " + Mask + " in text"},
		{"key a%21b in a query", "key " + Mask + " in a query"},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
