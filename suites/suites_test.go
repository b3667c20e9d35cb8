package suites_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	_ "github.com/merchant-harness/mph/suites" // the specs register themselves
	"github.com/merchant-harness/mph/suites/framework"
)

// TestConformance runs the conformance suites under go test / ginkgo,
// configured by the MPH_* environment (no MPH_BASE_URL: embedded sandbox).
func TestConformance(t *testing.T) {
	framework.InstallFailHandler()
	RunSpecs(t, "Merchant Payments API v1 conformance")
}
