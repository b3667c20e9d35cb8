package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/openapi"
	"github.com/merchant-harness/mph/target"
)

type openapiFlags struct {
	target      *target.Flags
	out, server string
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

JSON by default; YAML when -o ends in .yaml or .yml. Without -o the document
goes to stdout.`,
	Args: cobra.NoArgs,
	RunE: runOpenAPI,
}

func init() {
	f := &openapiOpts
	fs := openapiCmd.Flags()
	f.target = target.Bind(fs, target.CmdOpenAPI)
	fs.StringVarP(&f.out, "output", "o", "", "file to write (default stdout)")
	fs.StringVar(&f.server, "server", openapi.DefaultServer, "servers[0].url: the merchant root of the target")
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
	o := openapi.Options{Profile: prof, ProfileName: name, Server: f.server}
	var b []byte
	if ext := strings.ToLower(filepath.Ext(f.out)); ext == ".yaml" || ext == ".yml" {
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
