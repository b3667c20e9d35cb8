// Package testtarget serves the tests of the packages built on the load
// engine (compare, probe, topology): the embedded sandbox as a target and
// a scenario prepared on it, both closed with the test. The engine's own
// tests, inside package loadtest, cannot import it and keep their own.
package testtarget

import (
	"context"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/sandbox"
)

// Sandbox starts the sandbox in this process with opts and returns it as a
// target with the first two demo merchants' credentials.
func Sandbox(t testing.TB, opts sandbox.Options) *loadtest.Target {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, err := sandbox.Start(ctx, "127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = r.Close() })
	tg := Demo(r.BaseURL, r.ControlsURL, r.AdminKey)
	tg.Embedded = true
	return tg
}

// Demo is the target of a sandbox at baseURL with the first two demo
// merchants' credentials.
func Demo(baseURL, controlsURL, adminKey string) *loadtest.Target {
	var creds []loadtest.Credential
	for _, m := range sandbox.DemoMerchants()[:2] {
		creds = append(creds, loadtest.Credential{MerchantID: m.ID, SecretKey: m.TestKey})
	}
	return &loadtest.Target{BaseURL: baseURL, ControlsURL: controlsURL, AdminKey: adminKey, Creds: creds,
		Timeout: 5 * time.Second, Setup: loadtest.DefaultSetupProfile()}
}

// Prepare prepares the named scenario on tg (pool cards for the secure
// one) and closes it with the test.
func Prepare(t testing.TB, tg *loadtest.Target, name string, pool int) *loadtest.Scenario {
	t.Helper()
	s, err := loadtest.Prepare(context.Background(), tg, loadtest.ScenarioOptions{Name: name, PoolSize: pool})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}
