package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sort"
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

type identityJSON struct {
	Instance  string   `json:"instance"`
	BasePath  string   `json:"basePath"`
	Merchants []string `json:"merchants"`
}

// ctlIdentity is GET /_sandbox/identity: which sandbox this is and the
// merchants it serves. It needs no admin key (it holds no secret), so a
// harness can confirm the identity before it sends the key anywhere.
func (s *Server) ctlIdentity(rc *reqCtx) {
	ids := make([]string, 0, len(rc.world.Merchants))
	for id := range rc.world.Merchants {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	rc.JSON(http.StatusOK, identityJSON{Instance: s.inst, BasePath: s.base, Merchants: ids})
}
