package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/discover"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/report"
)

func init() {
	var (
		settings     *config.Flags
		out          string
		skipPurchase bool
	)
	profileCmd := &cobra.Command{
		Use:   "profile",
		Short: "Target profiles: what the API document does not show",
	}
	discoverCmd := &cobra.Command{
		Use:   "discover",
		Short: "Propose a target profile from a few requests to the target",
		Long: `Send a small, documented set of requests as the main TEST merchant and write
a proposed target profile: where the answers carry the customer id, the card,
the gift order, its reference and transaction id; the quote parameters and
members; whether X-Merchant-Id is checked; how the withdrawal fee and the
initial card balance apply; the listing maximum; the refusal statuses. Each key
says how it was found and how sure it is; keys that could not be settled keep
the default with a comment. Review it, then run: mph conform --profile FILE.

Money: one card of 2.00 USD (plus the creation fee), swept back and frozen,
and one gift card of the smallest face value the target accepts (none with
--skip-purchase). The target is configured as for mph conform.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := settings.Settings()
			if err != nil {
				return usageErr("%v", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cfg, cleanup, err := embedded.Resolve(context.WithoutCancel(ctx), s)
			if err != nil {
				return usageErr("%v", err)
			}
			defer cleanup()
			return runDiscover(ctx, cmd, cfg, out, skipPurchase)
		},
	}
	settings = config.Bind(discoverCmd.Flags(), config.CmdDiscover)
	discoverCmd.Flags().StringVarP(&out, "out", "o", "", "write the proposed profile here (default: standard output)")
	discoverCmd.Flags().BoolVar(&skipPurchase, "skip-purchase", false, "buy no gift card (the gift order keys stay undetermined)")
	profileCmd.AddCommand(discoverCmd)
	rootCmd.AddCommand(profileCmd)
}

func runDiscover(ctx context.Context, cmd *cobra.Command, cfg *config.Config, out string, skipPurchase bool) error {
	facts, err := config.Preflight(ctx, cfg)
	if err != nil {
		return usageErr("pre-flight: %v", err)
	}
	if facts.Live && !cfg.AllowLive {
		return usageErr("the main merchant's credentials are LIVE (%s): discovery spends money; pass --allow-live to run it anyway", facts.LiveWhy)
	}
	if facts.EnvDisagreement != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "mph: the target contradicts itself about the environment (%s): the credentials are taken as LIVE\n", facts.EnvDisagreement)
	}
	stderr := cmd.ErrOrStderr()
	res, err := discover.Run(ctx, discover.Options{Config: cfg, SkipPurchase: skipPurchase,
		Logf: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }})
	if err != nil {
		return fmt.Errorf("discovery: %w", err)
	}
	header := []string{
		"Target profile proposed by mph profile discover",
		fmt.Sprintf("target %s, %s", report.StripUserinfo(cfg.BaseURL), time.Now().UTC().Format(time.RFC3339)),
		"Review every key before use: each says how it was found and how sure it is.",
	}
	for _, n := range res.Notes {
		header = append(header, redact.Safe(n)) // the target's words: redacted like any output
	}
	b, err := discover.Render(header, res.Found, res.Undetermined)
	if err != nil {
		return fmt.Errorf("rendering the profile: %w", err)
	}
	// An artifact like any other: the reasons quote the target's answers.
	b = []byte(redact.Text(string(b)))
	fmt.Fprintf(stderr, "discover: %d keys found, %d undetermined, %d requests\n", len(res.Found), len(res.Undetermined), res.Requests)
	if out == "" {
		_, err = cmd.OutOrStdout().Write(b)
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "discover: wrote %s; review it, then run mph conform --profile %s\n", out, out)
	return nil
}
