package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/api"
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
		t, err := sweepRun(ctx, api, cfg, c.MerchantID)
		fmt.Fprintf(w, "%s: %d cards of run %s, %s USD swept back, %d frozen, %s USD left on them\n",
			c.MerchantID, t.cards, cfg.RunID, money.Amount(t.swept), t.frozen, money.Amount(t.left))
		for _, p := range t.problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
		failed += len(t.problems)
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

type sweepTally struct {
	cards, frozen int
	swept, left   int64
	problems      []string
}

// sweepRun sweeps the run's cards of one merchant: ACTIVE ones until none is
// left (a swept card is FROZEN and drops out of the list), then FROZEN ones
// still holding a sweepable balance.
func sweepRun(ctx context.Context, api *client.Client, cfg *config.Config, merchant string) (sweepTally, error) {
	var t sweepTally
	rules, err := sweepRules(ctx, api, cfg.Profile)
	if err != nil {
		return t, err
	}
	done := map[string]bool{}
	for _, status := range []string{"ACTIVE", "FROZEN"} {
		for round := 0; round < 100; round++ {
			ids, err := runCards(ctx, api, cfg, status, done)
			if err != nil || len(ids) == 0 {
				if err != nil {
					return t, err
				}
				break
			}
			for _, id := range ids {
				done[id] = true
				out, err := sweep.Card(ctx, api, id, false, rules)
				t.cards++
				t.swept += out.Swept
				t.left += out.Left
				if out.Frozen {
					t.frozen++
				}
				if err != nil {
					t.problems = append(t.problems, fmt.Sprintf("card %s: %v", id, err))
				}
			}
		}
	}
	return t, nil
}

func sweepRules(ctx context.Context, api *client.Client, p *api.Profile) (sweep.Rules, error) {
	if p.Cards.WithdrawVaultCredit == "amount" && p.Cards.WithdrawCardDebit == "amount" {
		return sweep.Rules{}, nil
	}
	resp, err := api.Get(ctx, "/cards/config", nil)
	if err != nil {
		return sweep.Rules{}, err
	}
	d, _ := resp.Map()["data"].(map[string]any)
	fee, err := money.Parse(fmt.Sprint(d["withdrawalFee"]))
	if resp.Status != http.StatusOK || err != nil {
		return sweep.Rules{}, fmt.Errorf("GET /cards/config answered HTTP %d without a withdrawalFee", resp.Status)
	}
	r := sweep.Rules{Fee: fee.Minor(), CardFee: fee.Minor()}
	if p.Cards.WithdrawVaultCredit == "amount" {
		r.Fee = 0
	}
	if p.Cards.WithdrawCardDebit == "amount" {
		r.CardFee = 0
	}
	return r, nil
}

// runCards lists the cards of the run in a status not handled yet.
func runCards(ctx context.Context, api *client.Client, cfg *config.Config, status string, done map[string]bool) ([]string, error) {
	q := url.Values{"status": {status}, "search": {cfg.RunID}, "limit": {strconv.Itoa(cfg.Profile.Cards.ListMaxLimit)}}
	resp, err := api.Get(ctx, "/cards", q)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, fmt.Errorf("GET /cards?search answered HTTP %d", resp.Status)
	}
	list, _ := resp.Map()["data"].([]any)
	var ids []string
	for _, x := range list {
		c, _ := x.(map[string]any)
		id, _ := c["id"].(string)
		ref, _ := c["reference"].(string)
		if id == "" || done[id] || !strings.HasPrefix(ref, cfg.RunID) {
			continue
		}
		ids = append(ids, id)
	}
	return ids, nil
}
