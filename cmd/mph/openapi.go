package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/openapi"
)

type openapiFlags struct {
	target                       *config.Flags
	out, server, format, license string
}

var openapiOpts openapiFlags

var openapiCmd = &cobra.Command{
	Use:   "openapi [--profile FILE] [-o FILE]",
	Short: "Write the API as an OpenAPI 3.1 document (schemas, requirements, profile)",
	Long: `Write an OpenAPI 3.1 document of the Merchant Payments API v1 as the harness
understands it: every endpoint with its parameters, request body and answers
in their envelopes (the embedded JSON Schemas as components), the bearer
security scheme, 429 with Retry-After, and the requirement IDs of each
operation. What the API document does not show comes from the target profile
and is marked x-mph-not-shown: true.

--server is the target's merchant root: servers[0].url is its origin and
every path begins with its path, so Prism (which ignores a server's path),
Schemathesis and Postman take the document as it is. --format yaml|json
(default: YAML when -o ends in .yaml or .yml, else JSON). Without -o the
document goes to stdout.`,
	Args: cobra.NoArgs,
	RunE: runOpenAPI,
}

func init() {
	f := &openapiOpts
	fs := openapiCmd.Flags()
	f.target = config.Bind(fs, config.CmdOpenAPI)
	fs.StringVarP(&f.out, "output", "o", "", "file to write (default stdout)")
	fs.StringVar(&f.server, "server", openapi.DefaultServer, "the merchant root of the target: servers[0].url is its origin, every path begins with its path")
	fs.StringVar(&f.format, "format", "", "yaml or json (default: yaml when -o ends in .yaml or .yml, else json)")
	fs.StringVar(&f.license, "license", openapi.DefaultLicense, "SPDX expression of info.license (the default names the API provider's terms)")
	rootCmd.AddCommand(openapiCmd)
}

func runOpenAPI(cmd *cobra.Command, _ []string) error {
	f := &openapiOpts
	s, err := f.target.Settings()
	if err != nil {
		return usageErr("%v", err)
	}
	prof, err := api.LoadProfile(s.ProfilePath)
	if err != nil {
		return usageErr("%v", err)
	}
	name := ""
	if s.ProfilePath != "" {
		name = filepath.Base(s.ProfilePath)
	}
	format, err := openapiFormat(f.format, f.out)
	if err != nil {
		return err
	}
	if _, _, err := openapi.SplitServer(f.server); err != nil {
		return usageErr("--server: %v", err)
	}
	o := openapi.Options{Profile: prof, ProfileName: name, Server: f.server, License: f.license}
	var b []byte
	if format == "yaml" {
		b, err = openapi.YAML(o)
	} else {
		b, err = openapi.JSON(o)
		b = append(b, '\n')
	}
	if err != nil {
		return harnessErr("%v", err)
	}
	if f.out == "" {
		_, err = cmd.OutOrStdout().Write(b)
		return err
	}
	if err := os.WriteFile(f.out, b, 0o644); err != nil {
		return usageErr("-o: %v", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "mph openapi: wrote %s\n", f.out)
	return nil
}

// openapiFormat is the format asked for, else the one -o's extension names.
func openapiFormat(format, out string) (string, error) {
	switch format {
	case "yaml", "json":
		return format, nil
	case "":
		if ext := strings.ToLower(filepath.Ext(out)); ext == ".yaml" || ext == ".yml" {
			return "yaml", nil
		}
		return "json", nil
	}
	return "", usageErr("--format %q: want yaml or json", format)
}
