package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/sandbox"
)

const (
	demoMerchant = "mer_demo_alpha"
	demoKey      = "sk_test_alpha_7f3a9c2e51d84b06"
	demoAdmin    = "sbx_admin_demo"
)

// reproduceLine is the reproduce line of an exchange as a failure message
// shows it: after the redaction and escaping of every output.
func reproduceLine(t *testing.T, ex *client.Exchange) string {
	t.Helper()
	for _, l := range strings.Split(redact.Safe(ex.String()), "\n") {
		if s, ok := strings.CutPrefix(l, "reproduce: "); ok {
			return s
		}
	}
	t.Fatalf("no reproduce line in\n%s", ex)
	return ""
}

// Every reproduce line is valid shell (bash -n) and, run against the sandbox
// with the README's variables set, gets the answer the harness got.
func TestReproduceLinesRunAgainstTheSandbox(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
	for name, v := range map[string]string{"BaseURL": config.EnvBaseURL, "ControlsURL": config.EnvControlsURL, "MerchantID": config.EnvMerchantID,
		"SecretKey": config.EnvSecretKey, "AdminKey": config.EnvAdminKey} {
		if !strings.Contains(client.ReproduceTokenExchange("http://h/v1/merchant", demoMerchant, demoKey)+"MPH_CONTROLS_URL MPH_ADMIN_KEY", v) {
			t.Errorf("reproduce lines do not use the README's %s variable %s", name, v)
		}
	}
	sbx, err := sandbox.New(sandbox.Options{AdminKey: demoAdmin})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sbx)
	defer srv.Close()
	base := srv.URL + "/v1/merchant"
	rec := client.NewRecorder()
	anon := client.New(client.Options{BaseURL: base, Recorder: func() *client.Recorder { return rec }})
	ts := client.NewTokenSource(anon, demoMerchant, demoKey)
	api := client.New(client.Options{BaseURL: base, Tokens: ts, Recorder: func() *client.Recorder { return rec }})
	ctrl := controls.New(anon, srv.URL+"/_sandbox", demoAdmin)
	ctx := context.Background()
	calls := reproduceCases(ctx, anon, api, ctrl)
	env := append(os.Environ(), config.EnvBaseURL+"="+base, config.EnvMerchantID+"="+demoMerchant, config.EnvSecretKey+"="+demoKey,
		config.EnvControlsURL+"="+srv.URL+"/_sandbox", config.EnvAdminKey+"="+demoAdmin, "TOKEN=forged.token.value")
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			rec.Reset()
			resp, err := c.do()
			if err != nil {
				t.Fatal(err)
			}
			line := reproduceLine(t, rec.Last())
			for _, secret := range []string{demoKey, demoAdmin, srv.URL} {
				if strings.Contains(line, secret) {
					t.Errorf("the line shows %q instead of its variable:\n%s", secret, line)
				}
			}
			if out, err := exec.Command("bash", "-n", "-c", line).CombinedOutput(); err != nil {
				t.Fatalf("bash -n: %v %s\n%s", err, out, line)
			}
			cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			answer := filepath.Join(t.TempDir(), "answer")
			cmd := exec.CommandContext(cctx, "bash", "-c", line+` -o "$ANSWER" -w '%{http_code}'`)
			cmd.Env = append(env, "ANSWER="+answer)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("running the line: %v %s\n%s", err, out, line)
			}
			if got := strings.TrimSpace(string(out)); got != strconv.Itoa(resp.Status) {
				t.Errorf("the line got HTTP %s, the harness %d:\n%s", got, resp.Status, line)
			}
			// The same request gets the same refusal, word for word.
			got, _ := os.ReadFile(answer)
			if want := messageOf(resp.Body); want != messageOf(got) {
				t.Errorf("the line got the message %q, the harness %q:\n%s", messageOf(got), want, line)
			}
		})
	}
}

type reproduceCase struct {
	name string
	do   func() (*client.Response, error)
}

// reproduceCases are requests of every kind a reproduce line must carry:
// credentials, a token, quotes, control characters, the controls.
func reproduceCases(ctx context.Context, anon, api *client.Client, ctrl *controls.Client) []reproduceCase {
	return []reproduceCase{
		{"token exchange", func() (*client.Response, error) {
			return anon.Post(ctx, client.TokenPath, client.TokenBody{MerchantID: demoMerchant, SecretKey: demoKey})
		}},
		{"authenticated GET", func() (*client.Response, error) { return api.Get(ctx, "/cards/config", nil) }},
		{"query and a quote in the path", func() (*client.Response, error) {
			return api.Get(ctx, "/cards/crd_o'brien", map[string][]string{"status": {"ALL"}, "search": {"o'brien & co"}})
		}},
		{"JSON body with a quote", func() (*client.Response, error) {
			return api.Patch(ctx, "/cards/crd_nosuch/contact", map[string]any{"email": "o'brien@example.com"})
		}},
		{"raw body with control characters", func() (*client.Response, error) {
			return api.Do(ctx, client.Request{Method: http.MethodPost, Path: "/cards/crd_nosuch/withdraw", RawBody: []byte("{\"amount\":\n\t1.5,\x00}")})
		}},
		{"raw body whose control character decides the answer", func() (*client.Response, error) {
			// A raw tab inside a JSON string is malformed JSON; a space there is not.
			return anon.Do(ctx, client.Request{Method: http.MethodPost, Path: client.TokenPath, RawBody: []byte("{\"merchantId\":\"mer\tx\",\n\"secretKey\":\"wrong\"}")})
		}},
		{"a token of the spec's own", func() (*client.Response, error) {
			return api.WithToken("forged.token.value").Get(ctx, "/cards", nil)
		}},
		{"secret key in the bearer position", func() (*client.Response, error) {
			return api.WithToken(demoKey).Get(ctx, "/cards", nil)
		}},
		{"sandbox controls with the admin key", func() (*client.Response, error) {
			return ctrl.HTTP().Get(ctx, "/rate-limits", nil)
		}},
	}
}

// messageOf is the message member of an error answer ("" for others).
func messageOf(body []byte) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m["message"] == nil {
		return ""
	}
	return fmt.Sprint(m["message"])
}
