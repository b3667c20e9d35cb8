package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is injected at build time (Makefile: -ldflags "-X main.version=$(git
// describe --tags --always --dirty)"); without it the module version and the
// VCS revision of the build info are used, and "devel" when neither exists
// (for example when built with GOFLAGS=-buildvcs=false).
var version = ""

// buildInfo is what `mph version --json` prints.
type buildInfo struct {
	Version   string `json:"version"`
	Module    string `json:"module"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"goVersion"`
}

func readBuildInfo() buildInfo {
	bi := buildInfo{Version: version, GoVersion: runtime.Version(), Module: "github.com/merchant-harness/mph"}
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

// versionString is the one harness version string of every report.
func versionString() string {
	bi := readBuildInfo()
	if bi.Revision != "" && !strings.Contains(bi.Version, shortRev(bi.Revision)) {
		return bi.Version + " (" + shortRev(bi.Revision) + ")"
	}
	return bi.Version
}

func init() {
	rootCmd.Version = versionString()
	rootCmd.SetVersionTemplate("mph {{.Version}}\n")
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the harness version (module version and VCS revision)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				b, err := json.MarshalIndent(readBuildInfo(), "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), string(b))
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "mph %s\n", versionString())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the build information as JSON")
	rootCmd.AddCommand(cmd)
}
