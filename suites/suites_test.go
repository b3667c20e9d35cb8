package suites_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/suites"
)

// TestConformance runs the conformance suites under go test / ginkgo,
// configured by the MPH_* environment (no MPH_BASE_URL: embedded sandbox).
func TestConformance(t *testing.T) {
	suites.InstallFailHandler()
	RunSpecs(t, "Merchant Payments API v1 conformance")
}
