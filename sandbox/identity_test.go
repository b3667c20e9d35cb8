package sandbox

import (
	"strings"
	"testing"
)

// The identity control needs no key and names the instance every answer
// carries in X-Sandbox-Instance; two sandboxes have different instances.
func TestIdentityControl(t *testing.T) {
	h := newSbx(t, Options{})
	id := h.raw("GET", "/_sandbox/identity", "").want(200)
	inst := id.s("instance")
	if !strings.HasPrefix(inst, "sbx_") || id.s("basePath") != "/v1/merchant" {
		t.Fatalf("identity: %s", id.body)
	}
	found := false
	for _, m := range id.list("merchants") {
		found = found || m == alpha
	}
	if !found {
		t.Fatalf("identity does not list %s: %s", alpha, id.body)
	}
	tok := h.raw("POST", "/v1/merchant/auth/token", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`, "Content-Type: application/json").want(200)
	if got := tok.hdr.Get(InstanceHeader); got != inst {
		t.Fatalf("token answer %s %q, identity %q", InstanceHeader, got, inst)
	}
	if got := h.raw("GET", "/nowhere", "").hdr.Get(InstanceHeader); got != inst {
		t.Fatalf("404 answer %s %q", InstanceHeader, got)
	}
	other := newSbx(t, Options{}).raw("GET", "/_sandbox/identity", "").want(200)
	if other.s("instance") == inst {
		t.Fatal("two sandboxes share an instance id")
	}
}
