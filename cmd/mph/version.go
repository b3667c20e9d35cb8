package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/internal/buildinfo"
)

// version is injected at build time (Makefile: -ldflags "-X main.version=$(git
// describe --tags --always --dirty)"); without it the module version and the
// VCS revision of the build info are used, and "devel" when neither exists
// (for example when built with GOFLAGS=-buildvcs=false).
var version = ""

// versionString is the one harness version string of every report.
func versionString() string { return buildinfo.Read(version).String() }

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
				b, err := json.MarshalIndent(buildinfo.Read(version), "", "  ")
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
