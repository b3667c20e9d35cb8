// Package modroot finds the module's root directory, for tests that read
// the repository's sources (the one-client and one-exchange checks).
package modroot

import (
	"errors"
	"os"
	"path/filepath"
)

// Dir returns the nearest directory at or above the working directory that
// holds a go.mod.
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above " + dir)
		}
		dir = parent
	}
}
