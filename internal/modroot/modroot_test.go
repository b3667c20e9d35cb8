package modroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirHoldsThisModule(t *testing.T) {
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(b), "module github.com/merchant-harness/mph\n") {
		t.Fatalf("go.mod in %s: %v", dir, err)
	}
}
