package schemas

import (
	"encoding/json"
	"testing"
)

func TestResolve(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"data":{"card":{"id":"crd_1"},"a/b":1,"m~n":2,"list":[{"x":3}]}}`), &doc); err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]any{
		"/data/card/id":  "crd_1",
		"/data/a~1b":     1.0,
		"/data/m~0n":     2.0,
		"/data/list/0/x": 3.0,
	} {
		if got, ok := Resolve(doc, ptr); !ok || got != want {
			t.Errorf("Resolve(%q) = %v, %v; want %v", ptr, got, ok, want)
		}
	}
	for _, ptr := range []string{"/data/nope", "/data/list/1", "/data/list/-1", "/data/card/id/x"} {
		if got, ok := Resolve(doc, ptr); ok {
			t.Errorf("Resolve(%q) = %v, want not found", ptr, got)
		}
	}
	if got, ok := Resolve(doc, ""); !ok || got == nil {
		t.Errorf(`Resolve("") is the whole document`)
	}
}
