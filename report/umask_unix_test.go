//go:build unix

package report

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Reports get the user's umask, as any file the user creates: 0600 under
// 077 (they were forced to 0644 whatever the umask), 0644 under 022.
func TestReportsHonourTheUmask(t *testing.T) {
	dir := t.TempDir()
	for umask, want := range map[int]os.FileMode{0o077: 0o600, 0o022: 0o644, 0o027: 0o640} {
		old := syscall.Umask(umask)
		path := filepath.Join(dir, "r.json")
		err := writeAtomic(path, []byte("{}"))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("umask %03o: mode %v, want %v (%v)", umask, fi.Mode().Perm(), want, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".r.json-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
