package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox"
)

// TestConformRunLeaksNoSecrets runs a whole `mph conform` against a sandbox
// (in this process, so the test can read the card credentials afterwards)
// and greps stdout/stderr and the JUnit, JSON and HTML reports for the demo
// secret keys, the admin key, any JWT, any 16-digit PAN and any CVV value.
func TestConformRunLeaksNoSecrets(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole conformance suite")
	}
	dir := t.TempDir()
	bin := mphBinary(t) // built once per test binary
	// A clean run, and a run against a sandbox whose fault makes a spec fail
	// while the secure details (PAN, CVV) are in its recorded exchanges.
	checkConformOutputs(t, bin, dir, "clean", nil)
	checkConformOutputs(t, bin, dir, "fault", []string{"card-secure-reveals-frozen"}, "--focus", "Secure card details")
}

func checkConformOutputs(t *testing.T, bin, dir, name string, faults []string, extra ...string) {
	t.Helper()
	ctx := context.Background()
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{Faults: faults})
	if err != nil {
		t.Skipf("sandbox with faults %v: %v", faults, err)
	}
	defer sbx.Close()

	demo := sandbox.DemoMerchants()
	env := append(os.Environ(),
		"MPH_BASE_URL="+sbx.BaseURL,
		"MPH_CONTROLS_URL="+sbx.ControlsURL,
		"MPH_ADMIN_KEY="+sbx.AdminKey,
		"MPH_MERCHANT_ID="+demo[0].ID, "MPH_SECRET_KEY="+demo[0].TestKey,
		"MPH_MERCHANT2_ID="+demo[1].ID, "MPH_SECRET_KEY2="+demo[1].TestKey,
		"MPH_LIVE_MERCHANT_ID="+demo[0].ID, "MPH_LIVE_SECRET_KEY="+demo[0].LiveKey,
		"MPH_LIVE_LOWKYB_MERCHANT_ID="+demo[1].ID, "MPH_LIVE_LOWKYB_SECRET_KEY="+demo[1].LiveKey,
		"MPH_BLOCKED_MERCHANT_ID="+demo[2].ID, "MPH_BLOCKED_SECRET_KEY="+demo[2].TestKey,
	)
	out := filepath.Join(dir, name)
	// --no-teardown: the cards stay ACTIVE so that their secure details can be
	// read below and searched for in the outputs.
	cmd := exec.Command(bin, append([]string{"conform", "--no-color", "--no-teardown", "--out", out, "-v"}, extra...)...)
	cmd.Env = env
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code == 2 {
		t.Fatalf("%s: mph conform exit 2:\n%s", name, stdout.String())
	}
	if faults != nil && code != 1 {
		t.Errorf("%s: the faulty sandbox should fail a spec (exit 1), got exit %d", name, code)
	}
	texts := map[string]string{"stdout": stdout.String()}
	for _, f := range []string{"junit.xml", "report.json", "report.summary.json", "report.html"} {
		b, rerr := os.ReadFile(filepath.Join(out, f))
		if rerr != nil {
			t.Fatalf("%s: report %s missing: %v", name, f, rerr)
		}
		texts[f] = string(b)
	}
	if faults != nil && !regexp.MustCompile(`reproduce: (TOKEN=\$\()?curl `).MatchString(texts["stdout"]) {
		t.Errorf("%s: a failing spec printed no curl line", name)
	}

	secrets := []string{sbx.AdminKey}
	for _, m := range demo {
		secrets = append(secrets, m.TestKey)
		if m.LiveKey != "" {
			secrets = append(secrets, m.LiveKey)
		}
	}
	pans, cvvs := revealCards(t, sbx.BaseURL, demo[0].ID, demo[0].TestKey)
	if len(pans) == 0 {
		t.Fatalf("%s: no card's secure details could be read: nothing to search the outputs for", name)
	}
	secrets = append(secrets, pans...)

	jwt := regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+`)
	pan16 := regexp.MustCompile(`(^|[^0-9.])[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}([^0-9]|$)`)
	cvvField := regexp.MustCompile(`(?i)cvv[\\"']*\s*[:=]\s*[\\"']*([0-9]{3,4})`)
	for file, text := range texts {
		for _, s := range secrets {
			if s != "" && strings.Contains(text, s) {
				t.Errorf("%s %s contains a secret (%.8s…)", name, file, s)
			}
		}
		if m := jwt.FindString(text); m != "" {
			t.Errorf("%s %s contains a JWT (%.12s…)", name, file, m)
		}
		if m := pan16.FindString(text); m != "" {
			t.Errorf("%s %s contains a 16-digit number (%.8s…)", name, file, strings.TrimSpace(m))
		}
		if m := cvvField.FindString(text); m != "" {
			t.Errorf("%s %s contains a cvv value (%s…)", name, file, m[:len(m)-2])
		}
		for _, c := range cvvs {
			if strings.Contains(text, `"cvv":"`+c+`"`) || strings.Contains(text, `\"cvv\":\"`+c) {
				t.Errorf("%s %s contains cvv %s", name, file, c)
			}
		}
	}
	if !strings.Contains(stdout.String(), "Conformance summary") {
		t.Errorf("%s: no console summary in the output:\n%s", name, stdout.String())
	}
}

// revealCards reads the secure details of the merchant's newest cards.
func revealCards(t *testing.T, base, merchant, key string) (pans, cvvs []string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"merchantId": merchant, "secretKey": key})
	resp, err := http.Post(base+"/auth/token", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	get := func(path string, v any) {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok.Data.AccessToken)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		_ = json.NewDecoder(r.Body).Decode(v)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	get("/cards?limit=100", &list)
	if len(list.Data) == 0 {
		t.Fatal("the run created no cards")
	}
	for _, c := range list.Data {
		var sec struct {
			Data struct {
				CardNumber string `json:"cardNumber"`
				CVV        string `json:"cvv"`
			} `json:"data"`
		}
		get("/cards/"+c.ID+"/secure", &sec)
		if sec.Data.CardNumber != "" {
			pans = append(pans, sec.Data.CardNumber, strings.ReplaceAll(sec.Data.CardNumber, " ", ""))
		}
		if sec.Data.CVV != "" {
			cvvs = append(cvvs, sec.Data.CVV)
		}
	}
	return pans, cvvs
}
