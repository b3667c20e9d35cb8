package expect

import (
	"encoding/json"
	"strings"
	"testing"
)

// The member the document names is found wherever an answer whose shape
// is not shown carries it; an id is a string or a number.
func TestFindMemberAndIDs(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"result":{"customer":{"customerId":10234,"id":"x"}},"meta":{"x":{"y":{"customerId":"deeper"}}},"customerIdx":1}`), &doc); err != nil {
		t.Fatal(err)
	}
	var numbered any
	dec := json.NewDecoder(strings.NewReader(`{"data":{"customerId":10234}}`))
	dec.UseNumber()
	_ = dec.Decode(&numbered)
	for _, c := range []struct {
		doc       any
		pointer   string
		wantID    string
		wantFound bool
	}{
		{numbered, "/data/customerId", "10234", true},
		{numbered, "/customerId", "10234", true},
		{numbered, "", "10234", true},
		{map[string]any{"data": map[string]any{"customerId": ""}}, "/data/customerId", "", false},
		{map[string]any{"data": []any{map[string]any{"customerId": "cus_1"}}}, "/x", "cus_1", true},
		{map[string]any{"data": map[string]any{"id": "cus_1"}}, "/data/customerId", "", false},
	} {
		v, _ := AtPointerOrNamed(c.doc, c.pointer, "customerId")
		id, ok := IDString(v)
		if id != c.wantID || ok != c.wantFound {
			t.Errorf("%v at %q: %q %v, want %q %v", c.doc, c.pointer, id, ok, c.wantID, c.wantFound)
		}
	}
	if obj, ok := FindObjectWith(doc, "customerId"); !ok || obj["id"] != "x" {
		t.Errorf("the shallowest object with customerId: %v", obj)
	}
}
