package promrw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// snappyDecode is the block format's decoder (the format's description,
// written apart from the encoder): the length, then literals and copies.
func snappyDecode(src []byte) ([]byte, error) {
	n, w := binary.Uvarint(src)
	if w <= 0 {
		return nil, errors.New("bad length")
	}
	src = src[w:]
	var dst []byte
	for len(src) > 0 {
		tag := src[0]
		switch tag & 3 {
		case 0:
			l := int(tag >> 2)
			src = src[1:]
			if l >= 60 {
				k := l - 59
				if len(src) < k {
					return nil, errors.New("short literal length")
				}
				l = 0
				for i := k - 1; i >= 0; i-- {
					l = l<<8 | int(src[i])
				}
				src = src[k:]
			}
			l++
			if len(src) < l {
				return nil, errors.New("short literal")
			}
			dst, src = append(dst, src[:l]...), src[l:]
		case 2:
			if len(src) < 3 {
				return nil, errors.New("short copy")
			}
			l, off := int(tag>>2)+1, int(src[1])|int(src[2])<<8
			src = src[3:]
			if off == 0 || off > len(dst) {
				return nil, errors.New("bad offset")
			}
			for i := 0; i < l; i++ {
				dst = append(dst, dst[len(dst)-off])
			}
		default:
			return nil, errors.New("element kind not written by this encoder")
		}
	}
	if uint64(len(dst)) != n {
		return nil, errors.New("length differs")
	}
	return dst, nil
}

func TestSnappyRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Repetitive input, as remote-write payloads are (labels repeat).
		words := rapid.SliceOfN(rapid.SliceOfN(rapid.Byte(), 1, 80), 1, 8).Draw(t, "words")
		var src []byte
		for range rapid.IntRange(0, 3000).Draw(t, "n") {
			src = append(src, words[rapid.IntRange(0, len(words)-1).Draw(t, "w")]...)
		}
		got, err := snappyDecode(snappyEncode(nil, src))
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("round trip of %d bytes: %v", len(src), err)
		}
	})
	big := bytes.Repeat([]byte("mph_load_requests_total{endpoint=\"list\"} "), 5000)
	enc := snappyEncode(nil, big)
	if got, err := snappyDecode(enc); err != nil || !bytes.Equal(got, big) || len(enc) > len(big)/10 {
		t.Fatalf("%d bytes compressed to %d: %v", len(big), len(enc), err)
	}
}

// pb is a minimal protobuf reader for the test: fields of one message.
type pbField struct {
	num, wire int
	varint    uint64
	bytes     []byte
}

func pbFields(t *testing.T, b []byte) []pbField {
	t.Helper()
	var out []pbField
	for len(b) > 0 {
		key, w := binary.Uvarint(b)
		b = b[w:]
		f := pbField{num: int(key >> 3), wire: int(key & 7)}
		switch f.wire {
		case 0:
			f.varint, w = binary.Uvarint(b)
			b = b[w:]
		case 1:
			f.varint, b = binary.LittleEndian.Uint64(b), b[8:]
		case 2:
			n, w := binary.Uvarint(b)
			f.bytes, b = b[w:w+int(n)], b[w+int(n):]
		default:
			t.Fatalf("wire type %d", f.wire)
		}
		out = append(out, f)
	}
	return out
}

// The WriteRequest decodes field by field as the protocol's messages say,
// labels sorted by name.
func TestWriteRequestEncoding(t *testing.T) {
	ss := []Series{{Labels: []Label{{"run_id", "r1"}, {"__name__", "m_total"}, {"endpoint", "list"}},
		Samples: []Sample{{Value: 42.5, Timestamp: 1700000000123}}}}
	req := pbFields(t, appendWriteRequest(nil, ss))
	if len(req) != 1 || req[0].num != 1 || req[0].wire != 2 {
		t.Fatalf("WriteRequest %+v", req)
	}
	var names, values []string
	var sample []pbField
	for _, f := range pbFields(t, req[0].bytes) {
		switch f.num {
		case 1:
			l := pbFields(t, f.bytes)
			names, values = append(names, string(l[0].bytes)), append(values, string(l[1].bytes))
		case 2:
			sample = pbFields(t, f.bytes)
		}
	}
	if want := []string{"__name__", "endpoint", "run_id"}; !equal(names, want) || !equal(values, []string{"m_total", "list", "r1"}) {
		t.Fatalf("labels %v = %v", names, values)
	}
	if len(sample) != 2 || math.Float64frombits(sample[0].varint) != 42.5 || sample[1].varint != 1700000000123 {
		t.Fatalf("sample %+v", sample)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
