package sandbox

import (
	"crypto/rand"
	"encoding/hex"
)

// InstanceHeader carries the sandbox instance id on every answer, merchant API
// and controls alike. A harness whose controls URL is on another origin than
// its base URL compares it with GET /_sandbox/identity to confirm that both
// reach the same sandbox.
const InstanceHeader = "X-Sandbox-Instance"

// newInstanceID is a random id, unique per Server.
func newInstanceID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "sbx_" + hex.EncodeToString(b)
}

// Instance returns the instance id (see InstanceHeader).
func (s *Server) Instance() string { return s.inst }
