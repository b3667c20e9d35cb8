package sandbox

import _ "embed"

//go:embed profile.yaml
var profileYAML []byte

// ProfileYAML is the sandbox's own target profile (sandbox/profile.yaml):
// its choice at every open point, strict knobs included.
func ProfileYAML() []byte { return append([]byte(nil), profileYAML...) }
