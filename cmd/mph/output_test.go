package main

import (
	"io"
	"log"
	"os"
	"strings"
	"testing"
)

// A standard-library log line (an HTTP server's error quoting a request)
// goes through the redacting writer like every console line.
func TestStandardLogLinesAreRedacted(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, logOut, logFlags := os.Stderr, log.Writer(), log.Flags()
	os.Stderr = w
	installSafeOutput()
	log.SetFlags(0)
	log.Print("http: TLS handshake error: Authorization: Bearer opaque-tok-9f8e7d6c \x1b[2K")
	os.Stderr = stderr
	log.SetOutput(logOut)
	log.SetFlags(logFlags)
	for _, c := range append(rootCmd.Commands(), rootCmd) {
		c.SetOut(nil)
		c.SetErr(nil)
	}
	w.Close()
	b, _ := io.ReadAll(r)
	if got := string(b); strings.Contains(got, "opaque-tok-9f8e7d6c") || strings.Contains(got, "\x1b") || !strings.Contains(got, "Bearer ***") {
		t.Fatalf("the log line reached stderr as %q", got)
	}
}
