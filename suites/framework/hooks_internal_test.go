package framework

import (
	"errors"
	"net/http"
	"reflect"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/config"
)

// The hooks run in the order the rooms registered them; a failing
// ProcessSetup stops the set-up; Transport wraps in registration order.
func TestHooksRunInOrder(t *testing.T) {
	saved := h
	h = newHarness()
	defer func() { h = saved }()
	var got []string
	note := func(s string) func() { return func() { got = append(got, s) } }
	wrap := func(name string) func(*http.Client, config.Credentials, string) *http.Client {
		return func(hc *http.Client, _ config.Credentials, _ string) *http.Client {
			got = append(got, name)
			cp := *hc
			return &cp
		}
	}
	boom := errors.New("boom")
	Register(Hooks{Transport: wrap("t1"), ProcessSetup: func() error { note("s1")(); return nil }, Interrupt: func(*types.Report) { note("i1")() }, InterruptCut: note("c1")})
	Register(Hooks{Transport: wrap("t2"), ProcessSetup: func() error { note("s2")(); return boom }})
	Register(Hooks{ProcessSetup: func() error { note("s3")(); return nil }, InterruptCut: note("c3")})

	hc := &http.Client{}
	if out := h.transport(hc, config.Credentials{}, "http://x"); out == hc {
		t.Error("Transport hooks did not wrap the client")
	}
	if err := h.processSetup(); !errors.Is(err, boom) {
		t.Errorf("processSetup = %v, want the failing hook's error", err)
	}
	h.interrupted(&types.Report{})
	h.cutInterrupt()
	want := []string{"t1", "t2", "s1", "s2", "i1", "c1", "c3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hooks ran %v, want %v", got, want)
	}
}
