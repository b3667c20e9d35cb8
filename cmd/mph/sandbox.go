package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/catalogue"
	"github.com/merchant-harness/mph/sandbox/console"
	"github.com/merchant-harness/mph/sandbox/options"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/selftest"
)

type sandboxFlags struct {
	addr, basePath, adminKey string
	rateLimits               []string
	rlShare, rlKey           string
	faults, variants         []string
	variantSeed              int64
	writeProfile             string
	listFaults, listVars     bool
	listFormat               string
	target                   *config.Flags
	verbose, hide, echo      bool
	hookURLs, hookKeys       []string
}

func init() {
	var sf sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the reference sandbox of the Merchant Payments API v1",
		Long: `Run the reference sandbox: the whole Merchant Payments API v1 under the base
path, with test controls under /_sandbox (see docs/sandbox.md). It prints the
base URL, the controls URL, the admin key and the seeded demo credentials, and
stops gracefully on SIGINT or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSandbox(cmd, &sf) },
	}
	f := cmd.Flags()
	f.StringVar(&sf.addr, "addr", sandbox.DefaultAddr, "listen address (host:port; port 0 picks a free port)")
	f.StringVar(&sf.basePath, "base-path", sandbox.DefaultBasePath, "merchant API base path (must end in /v1/merchant)")
	f.StringVar(&sf.adminKey, "admin-key", sandbox.DefaultAdminKey, "admin key of the /_sandbox test controls (header X-Sandbox-Admin-Key)")
	f.BoolVar(&sf.echo, "echo-requests", false, "TEST ONLY: echo every request's headers and body in the answers (a leaky target for testing redaction; docs/security.md)")
	f.StringArrayVar(&sf.rateLimits, "rate-limit", nil, "rate limit group=rate[:burst] for token, read, secure, write (repeatable), or 'off'")
	f.StringVar(&sf.rlShare, "rate-limit-share", "", "rate-limit groups drawing from one bucket, e.g. read+secure (sets separated by commas; the first group's numbers apply)")
	f.StringVar(&sf.rlKey, "rate-limit-key", "", "bucket key of authenticated calls: merchant (default), token or client")
	f.StringArrayVar(&sf.faults, "fault", nil, "inject a named fault (repeatable; see --list-faults)")
	f.BoolVar(&sf.listFaults, "list-faults", false, "list the injectable faults and exit")
	f.StringArrayVar(&sf.variants, "variant", nil, "switch on a setting of a dimension, a document-allowed behaviour (repeatable, one per dimension; see --list-variants)")
	f.Int64Var(&sf.variantSeed, "variant-seed", -1, "draw one setting of every dimension from seed N (deterministic; printed), beside any --variant of other dimensions")
	f.StringVar(&sf.writeProfile, "write-profile", "", "write the target profile a harness needs against this sandbox (the default overlaid by the chosen settings' overlays) to FILE")
	f.BoolVar(&sf.listVars, "list-variants", false, "list the dimensions (open points of the document) and their settings, the document's words allowing each and the profile each needs, and exit")
	f.StringVar(&sf.listFormat, "format", "text", "format of --list-faults and --list-variants: text, or markdown (docs/faults.md, docs/variants.md)")
	sf.target = config.Bind(f, config.CmdSandbox)
	f.BoolVarP(&sf.verbose, "verbose", "v", false, "log webhook deliveries and lifecycle events")
	f.BoolVar(&sf.hide, "hide-controls", false, "answer /_sandbox with 404, standing in for a real TEST environment without test controls")
	f.StringArrayVar(&sf.hookURLs, "webhook-url", nil, "MERCHANT=URL: the merchant's webhook URL from the start, as a provider's dashboard sets it (repeatable)")
	f.StringArrayVar(&sf.hookKeys, "webhook-secret", nil, "MERCHANT=SECRET: the HMAC-SHA256 key signing that merchant's deliveries (default: its TEST secret key; repeatable)")
	rootCmd.AddCommand(cmd)
}

func runSandbox(cmd *cobra.Command, sf *sandboxFlags) error {
	out := cmd.OutOrStdout()
	if sf.listFormat != "text" && sf.listFormat != "markdown" {
		return usageErr("--format %q: want text or markdown", sf.listFormat)
	}
	if sf.listFaults || sf.listVars {
		return printCatalogue(out, sf.listFaults, sf.listFormat == "markdown")
	}
	if err := sf.drawSeed(out); err != nil {
		return usageErr("%v", err)
	}
	opts, err := sf.options(cmd.ErrOrStderr())
	if err != nil {
		return usageErr("%v", err)
	}
	if err := sf.writeVariantProfile(); err != nil {
		return usageErr("%v", err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run, err := sandbox.Start(ctx, sf.addr, opts)
	if err != nil {
		return usageErr("%v", err)
	}
	console.Banner(out, run, sf.faults)
	if len(sf.variants) > 0 {
		fmt.Fprintf(out, "  VARIANTS      %s  (document-allowed settings; see --list-variants for the profile each needs)\n", strings.Join(sf.variants, ", "))
	}
	if sf.writeProfile != "" {
		fmt.Fprintf(out, "  PROFILE       %s  (pass it to mph conform --profile)\n", sf.writeProfile)
	}
	<-ctx.Done()
	fmt.Fprintln(out, "mph sandbox: shutting down")
	if err := run.Close(); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return run.Wait()
}

// options turns the flags into the sandbox's options.
func (sf *sandboxFlags) options(logTo io.Writer) (sandbox.Options, error) {
	opts := sandbox.Options{BasePath: sf.basePath, AdminKey: sf.adminKey, Faults: sf.faults, Variants: sf.variants, EchoRequests: sf.echo, HideControls: sf.hide}
	var err error
	if opts.Webhooks, err = options.WebhookPresets(sf.hookURLs, sf.hookKeys); err != nil {
		return opts, err
	}
	s, err := sf.target.Settings()
	if err != nil {
		return opts, err
	}
	if s.SandboxJWTSecret != "" {
		opts.JWTSecret = []byte(s.SandboxJWTSecret)
	}
	rl, off, err := options.RateLimits(sf.rateLimits)
	if err != nil {
		return opts, err
	}
	opts.RateLimits, opts.DisableRateLimits = rl, off
	opts.RateLimitTopology = ratelimit.Topology{Shared: ratelimit.ParseShared(sf.rlShare), Key: sf.rlKey}
	level := slog.LevelWarn
	if sf.verbose {
		level = slog.LevelInfo
	}
	opts.Logger = slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: level}))
	return opts, nil
}

// printCatalogue lists the faults (else the variants) as text or as the
// Markdown of docs/faults.md and docs/variants.md.
func printCatalogue(out io.Writer, faults, markdown bool) error {
	switch {
	case faults && markdown:
		return catalogue.FaultsMarkdown(out)
	case markdown:
		return catalogue.VariantsMarkdown(out)
	case faults:
		console.Faults(out)
	default:
		console.Variants(out)
	}
	return nil
}

// drawSeed adds the settings --variant-seed draws to --variant, one of
// every dimension not named by --variant, and prints them.
func (sf *sandboxFlags) drawSeed(out io.Writer) error {
	if sf.variantSeed < 0 {
		return nil
	}
	drawn, err := options.Drawn(uint64(sf.variantSeed), sf.variants)
	if err != nil {
		return err
	}
	sf.variants = append(sf.variants, drawn...)
	fmt.Fprintf(out, "variant seed %d draws %d settings besides the references: %s\n\n", sf.variantSeed, len(drawn), strings.Join(drawn, " "))
	return nil
}

// writeVariantProfile writes --write-profile: the chosen settings' merged
// overlays (the defaults apply to every other key).
func (sf *sandboxFlags) writeVariantProfile() error {
	if sf.writeProfile == "" {
		return nil
	}
	var overlays []string
	for _, n := range sf.variants {
		if v, ok := variant.Lookup(n); ok {
			overlays = append(overlays, v.Profile)
		}
	}
	b, err := selftest.MergeOverlays(overlays...)
	if err != nil {
		return err
	}
	head := "# Target profile of the sandbox with these settings (mph sandbox --list-variants):\n#   " +
		strings.Join(sf.variants, "\n#   ") + "\n# Keys not set here keep the default profile's value.\n"
	return os.WriteFile(sf.writeProfile, append([]byte(head), b...), 0o644)
}
