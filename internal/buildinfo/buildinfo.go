// Package buildinfo is the harness's build information: the version given
// at build time, else the module version, else "devel" with the VCS
// revision, and the one version string every report carries.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Info is what `mph version --json` prints.
type Info struct {
	Version   string `json:"version"`
	Module    string `json:"module"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"goVersion"`
}

// Read is the build information of this binary, version being the one
// injected at build time ("" without): then the module version and the VCS
// revision of the build info are used, and "devel" when neither exists
// (for example when built with GOFLAGS=-buildvcs=false).
func Read(version string) Info {
	bi := Info{Version: version, GoVersion: runtime.Version(), Module: "github.com/merchant-harness/mph"}
	info, ok := debug.ReadBuildInfo()
	if ok {
		bi.Module = info.Main.Path
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				bi.Revision = s.Value
			case "vcs.time":
				bi.Time = s.Value
			case "vcs.modified":
				bi.Modified = s.Value == "true"
			}
		}
		if bi.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			bi.Version = info.Main.Version
		}
	}
	if bi.Version == "" {
		bi.Version = "devel"
		if bi.Revision != "" {
			bi.Version += "+" + shortRev(bi.Revision)
			if bi.Modified {
				bi.Version += "-dirty"
			}
		}
	}
	return bi
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

// String is the one harness version string of every report: the version,
// with the short revision when the version does not name it.
func (bi Info) String() string {
	if bi.Revision != "" && !strings.Contains(bi.Version, shortRev(bi.Revision)) {
		return bi.Version + " (" + shortRev(bi.Revision) + ")"
	}
	return bi.Version
}
