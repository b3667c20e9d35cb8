package proxy_test

import (
	"testing"

	"github.com/merchant-harness/mph/proxy"
)

func validateAgainstOpenAPI(t *testing.T, seen []proxy.Exchange) {}
