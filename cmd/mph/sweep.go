package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/liveguard"
	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sweep"
)

func init() {
	var settings *config.Flags
	cmd := &cobra.Command{
		Use:   "sweep --run-id ID",
		Short: "Return the money of an earlier run's cards to the vault and freeze them",
		Long: `Find the cards an earlier mph conform run created (their reference begins
with the run id, printed at the start of every run) with GET /cards?search=ID,
withdraw each balance back to the vault when a withdrawal can return money (at
least 0.10 USD and more than the withdrawal fee) and freeze the card. For a
run that was killed before its teardown, or kept with --no-teardown. Cards of
the main merchant and, when configured, of the second merchant.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := settings.Settings()
			if err != nil {
				return usageErr("%v", err)
			}
			if s.RunID == "" || s.BaseURL == "" {
				return usageErr("mph sweep needs --run-id and a target (--base-url or %s)", config.EnvBaseURL)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cfg, cleanup, err := embedded.Resolve(ctx, s)
			if err != nil {
				return usageErr("%v", err)
			}
			defer cleanup()
			return runSweep(ctx, cmd.OutOrStdout(), cfg)
		},
	}
	settings = config.Bind(cmd.Flags(), config.CmdSweep)
	rootCmd.AddCommand(cmd)
}

func runSweep(ctx context.Context, w io.Writer, cfg *config.Config) error {
	facts, err := config.Preflight(ctx, cfg)
	if err != nil {
		return usageErr("pre-flight: %v", err)
	}
	if facts.Live && !cfg.AllowLive {
		return usageErr("the credentials are LIVE (%s): pass --allow-live to sweep LIVE cards", facts.LiveWhy)
	}
	if facts.EnvDisagreement != "" {
		fmt.Fprintf(w, "mph: the target contradicts itself about the environment (%s): the credentials are taken as LIVE\n", facts.EnvDisagreement)
	}
	// Every client of the sweep refuses a write carrying a LIVE credential
	// (the second merchant's included) without --allow-live.
	guarded, guard := liveguard.Wrap(cfg.HTTPClient(), cfg.AllowLive || cfg.Embedded)
	if facts.Live {
		guard.LiveSecret(cfg.Primary.SecretKey)
	}
	creds := []config.Credentials{cfg.Primary}
	if cfg.Secondary != nil {
		creds = append(creds, *cfg.Secondary)
	}
	failed := 0
	for _, c := range creds {
		api := sweepClient(cfg, guard.Client(guarded), c)
		var t sweep.Tally
		rules, err := sweep.RulesFor(ctx, api, cfg.Profile)
		if err == nil {
			t, err = sweep.Run(ctx, api, cfg.RunID, cfg.Profile.Cards.ListMaxLimit, rules)
		}
		fmt.Fprintf(w, "%s: %d cards of run %s, %s USD swept back, %d frozen, %s USD left on them\n",
			c.MerchantID, t.Cards, cfg.RunID, money.Amount(t.Swept), t.Frozen, money.Amount(t.Left))
		for _, p := range t.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
		failed += len(t.Problems)
		if err != nil {
			return fmt.Errorf("%s: %w", c.MerchantID, err)
		}
	}
	if failed > 0 {
		return failuresErr("%d cards could not be swept", failed)
	}
	return nil
}

func sweepClient(cfg *config.Config, hc *http.Client, c config.Credentials) *client.Client {
	maxBody := cfg.BodyCap(config.DefaultConformMaxBody)
	anon := client.New(client.Options{BaseURL: cfg.BaseURL, HTTP: hc, Timeout: cfg.Timeout, MaxBody: maxBody, RetryAfterMax: cfg.RetryAfterMax})
	return client.New(client.Options{BaseURL: cfg.BaseURL, HTTP: hc, Timeout: cfg.Timeout, MaxBody: maxBody, RetryAfterMax: cfg.RetryAfterMax,
		Tokens: client.NewTokenSource(anon, c.MerchantID, c.SecretKey)})
}
