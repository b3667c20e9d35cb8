package resultsbin

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"pgregory.net/rapid"
)

// genResult draws a result with every field either zero or not, and at
// most maxKeys header names (encoding/gob writes a map's entries in Go's
// random order, so byte equality needs at most one).
func genResult(t *rapid.T, maxKeys int) *vegeta.Result {
	str := func(label string) string {
		if rapid.Bool().Draw(t, label+"?") {
			return rapid.StringN(0, 300, -1).Draw(t, label)
		}
		return ""
	}
	r := &vegeta.Result{
		Attack: str("attack"), Error: str("error"), Method: str("method"), URL: str("url"),
		Seq:      rapid.OneOf(rapid.Just(uint64(0)), rapid.Uint64()).Draw(t, "seq"),
		Code:     rapid.OneOf(rapid.Just(uint16(0)), rapid.Uint16()).Draw(t, "code"),
		Latency:  time.Duration(rapid.OneOf(rapid.Just(int64(0)), rapid.Int64()).Draw(t, "latency")),
		BytesIn:  rapid.OneOf(rapid.Just(uint64(0)), rapid.Uint64()).Draw(t, "in"),
		BytesOut: rapid.OneOf(rapid.Just(uint64(0)), rapid.Uint64Range(0, 1<<40)).Draw(t, "out"),
		Body:     rapid.SliceOfN(rapid.Byte(), 0, 2000).Draw(t, "body"),
	}
	switch rapid.IntRange(0, 3).Draw(t, "time") {
	case 1:
		r.Timestamp = time.Now() // local zone, monotonic reading
	case 2:
		r.Timestamp = time.Unix(rapid.Int64Range(-1<<40, 1<<40).Draw(t, "sec"), rapid.Int64Range(0, 999999999).Draw(t, "nsec")).UTC()
	case 3:
		r.Timestamp = time.Unix(rapid.Int64Range(0, 1<<35).Draw(t, "sec2"), 0).In(time.FixedZone("X", 3600*rapid.IntRange(-12, 12).Draw(t, "zone")))
	}
	if n := rapid.IntRange(0, maxKeys).Draw(t, "keys"); n > 0 {
		r.Headers = http.Header{}
		for i := range n {
			k := rapid.StringMatching(`[A-Z][a-z-]{0,20}`).Draw(t, "key")
			r.Headers[k] = rapid.SliceOfN(rapid.StringN(0, 50, -1), 0, 3).Draw(t, "values")
			_ = i
		}
	}
	return r
}

// The encoder writes exactly what encoding/gob (vegeta.NewEncoder) writes,
// result after result.
func TestEncoderWritesGobsBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var want, got bytes.Buffer
		ref, enc := vegeta.NewEncoder(&want), NewEncoder(&got)
		for i := range rapid.IntRange(1, 5).Draw(t, "n") {
			r := genResult(t, 1)
			if err := ref.Encode(r); err != nil {
				t.Fatal(err)
			}
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				t.Fatalf("result %d %+v:\ngob  % x\nmine % x", i, r, want.Bytes(), got.Bytes())
			}
		}
	})
}

// vegeta's decoder reads back every result, several header names included.
func TestEncoderRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		enc := NewEncoder(&b)
		var in []*vegeta.Result
		for range rapid.IntRange(1, 5).Draw(t, "n") {
			r := genResult(t, 4)
			in = append(in, r)
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		dec := vegeta.NewDecoder(&b)
		for i, want := range in {
			var got vegeta.Result
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("result %d: %v", i, err)
			}
			if !got.Equal(*want) || !got.Timestamp.Equal(want.Timestamp) {
				t.Fatalf("result %d: got %+v, want %+v", i, got, *want)
			}
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	r := &vegeta.Result{Attack: "list", Seq: 123456, Code: 200, Timestamp: time.Now(), Latency: 1234567, BytesIn: 300,
		Method: "GET", URL: "http://127.0.0.1:8080/v1/merchant/cards?limit=20", Headers: http.Header{"Content-Type": {"application/json"}}}
	for _, impl := range []struct {
		name string
		enc  func(*vegeta.Result) error
	}{{"gob", vegeta.NewEncoder(discard{})}, {"resultsbin", NewEncoder(discard{}).Encode}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := impl.enc(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
