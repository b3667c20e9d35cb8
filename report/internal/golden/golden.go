// Package golden checks rendered reports against the files under
// testdata/golden, for the tests of the report packages.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Check compares got with testdata/golden/name, or writes it there when
// update is set; pkg is the package's path for the hint to update.
func Check(t *testing.T, pkg, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	hint := "go test ./" + pkg + " -run TestGoldenReports -update"
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, hint)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (%s, then review the diff):\n%s", name, hint, FirstDiff(string(want), string(got)))
	}
}

// FirstDiff shows the first line where two texts differ ("" if none).
func FirstDiff(want, got string) string {
	wl, gl := bytes.Split([]byte(want), []byte("\n")), bytes.Split([]byte(got), []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return "line " + strconv.Itoa(i+1) + "\n want: " + string(w) + "\n  got: " + string(g)
		}
	}
	return ""
}
