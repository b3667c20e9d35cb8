package httpclient

import (
	"errors"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/redact"
)

func TestReadBodyCutsWithoutKeepingTheStartOfASecret(t *testing.T) {
	key := "ReadBodyKey-3nB8xQ1w"
	redact.Register(key)
	body := strings.Repeat("x", 20) + key + `"}`
	for _, max := range []int64{24, 28, 32} {
		b, err := ReadBody(strings.NewReader(body), max)
		if !errors.Is(err, ErrBodyTooLarge) {
			t.Fatalf("max %d: err %v", max, err)
		}
		if strings.Contains(string(b), key[:4]) || !strings.HasSuffix(string(b), redact.Mask) {
			t.Errorf("max %d: kept %q", max, b)
		}
	}
	if b, err := ReadBody(strings.NewReader(body), int64(len(body))); err != nil || string(b) != body {
		t.Errorf("a body within the cap changed: %q %v", b, err)
	}
}
