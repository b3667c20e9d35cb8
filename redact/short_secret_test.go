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

// A body cut at a read limit in the middle of a secret keeps no fragment
// of it that the registry could no longer recognise.
func TestCutTailMasksTheStartOfASecret(t *testing.T) {
	key := "CutTailKey-8hG3kLq2"
	Register(key)
	cases := []struct{ in, want string }{
		{`{"note":"` + key[:9], `{"note":"` + Mask},
		{`{"note":"` + key[:4], `{"note":"` + Mask},
		{`{"note":"` + key[:3], `{"note":"` + key[:3]},
		{`{"note":"nothing secret`, `{"note":"nothing secret`},
	}
	for _, c := range cases {
		if got := string(CutTail([]byte(c.in))); got != c.want {
			t.Errorf("CutTail(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
