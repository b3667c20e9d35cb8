// Package resultsbin writes results.bin: vegeta results in vegeta's gob
// encoding, byte for byte what encoding/gob writes, without its reflection.
// encoding/gob spent about a microsecond and four allocations on every
// result of a run, in the goroutine that records them; this encoder
// appends each result's fields to one reused buffer. The type definitions
// are encoding/gob's own, taken once from an encoding of an empty result.
package resultsbin

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Encoder writes results to one stream, as vegeta.NewEncoder does.
type Encoder struct {
	w       io.Writer
	defs    []byte // encoding/gob's type definitions, written before the first result
	typeID  []byte // the Result type's id, as gob writes it
	started bool
	buf     []byte
}

// defs and typeID are encoding/gob's start of a stream of results (the
// type definitions) and the encoded type id of vegeta.Result.
var defs, typeID = prelude()

func prelude() ([]byte, []byte) {
	var b bytes.Buffer
	if err := vegeta.NewEncoder(&b).Encode(&vegeta.Result{}); err != nil {
		panic("resultsbin: " + err.Error())
	}
	// The stream is messages, each preceded by its length; the last one is
	// the empty result: its type id then the struct's end (0).
	s := b.Bytes()
	var last int
	for at := 0; at < len(s); {
		n, w, err := readUint(s[at:])
		if err != nil {
			panic("resultsbin: " + err.Error())
		}
		last = at
		at += w + int(n)
	}
	n, w, _ := readUint(s[last:])
	msg := s[last+w : last+w+int(n)]
	return append([]byte(nil), s[:last]...), append([]byte(nil), msg[:len(msg)-1]...)
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w, defs: defs, typeID: typeID}
}

// Encode writes one result.
func (e *Encoder) Encode(r *vegeta.Result) error {
	if !e.started {
		if _, err := e.w.Write(e.defs); err != nil {
			return err
		}
		e.started = true
	}
	_, err := e.w.Write(e.message(r))
	return err
}

// message is the result's gob message preceded by its length: the type
// id, then each non-zero field as its number's delta from the last one
// sent and its value, then 0. The message is built after room for the
// longest length, which is then written right before it.
func (e *Encoder) message(r *vegeta.Result) []byte {
	const room = 9
	b := append(e.buf[:0], make([]byte, room)...)
	b = append(b, e.typeID...)
	last := -1
	field := func(i int) {
		b = appendUint(b, uint64(i-last))
		last = i
	}
	if r.Attack != "" {
		field(0)
		b = appendString(b, r.Attack)
	}
	if r.Seq != 0 {
		field(1)
		b = appendUint(b, r.Seq)
	}
	if r.Code != 0 {
		field(2)
		b = appendUint(b, uint64(r.Code))
	}
	if r.Timestamp != (time.Time{}) { // gob sends a struct unless every field is zero

		field(3)
		b = appendTime(b, r)
	}
	if r.Latency != 0 {
		field(4)
		b = appendInt(b, int64(r.Latency))
	}
	if r.BytesOut != 0 {
		field(5)
		b = appendUint(b, r.BytesOut)
	}
	if r.BytesIn != 0 {
		field(6)
		b = appendUint(b, r.BytesIn)
	}
	if r.Error != "" {
		field(7)
		b = appendString(b, r.Error)
	}
	if len(r.Body) > 0 {
		field(8)
		b = appendUint(b, uint64(len(r.Body)))
		b = append(b, r.Body...)
	}
	if r.Method != "" {
		field(9)
		b = appendString(b, r.Method)
	}
	if r.URL != "" {
		field(10)
		b = appendString(b, r.URL)
	}
	if len(r.Headers) > 0 {
		field(11)
		b = appendHeaders(b, r.Headers)
	}
	b = append(b, 0)
	e.buf = b
	var l [room]byte
	n := appendUint(l[:0], uint64(len(b)-room))
	start := room - len(n)
	copy(b[start:], n)
	return b[start:]
}

// appendHeaders appends a map as gob does: its length, then each key and
// value (a []string: its length, then each string).
func appendHeaders(b []byte, h http.Header) []byte {
	b = appendUint(b, uint64(len(h)))
	for k, vs := range h {
		b = appendString(b, k)
		b = appendUint(b, uint64(len(vs)))
		for _, v := range vs {
			b = appendString(b, v)
		}
	}
	return b
}

// appendTime appends the timestamp as gob sends a GobEncoder: its
// GobEncode bytes (time.Time's binary form) preceded by their length.
func appendTime(b []byte, r *vegeta.Result) []byte {
	var tb [16]byte
	t, err := r.Timestamp.AppendBinary(tb[:0])
	if err != nil {
		// gob would fail the whole encoding; a time outside the binary
		// form's range cannot come from a clock.
		panic(fmt.Sprintf("resultsbin: timestamp %v: %v", r.Timestamp, err))
	}
	b = appendUint(b, uint64(len(t)))
	return append(b, t...)
}

func appendString(b []byte, s string) []byte {
	b = appendUint(b, uint64(len(s)))
	return append(b, s...)
}

// appendUint is gob's unsigned integer: below 128 one byte, else the
// negated byte count then the big-endian bytes.
func appendUint(b []byte, x uint64) []byte {
	if x < 128 {
		return append(b, byte(x))
	}
	var be [8]byte
	n := 8
	for ; x > 0; x >>= 8 {
		n--
		be[n] = byte(x)
	}
	b = append(b, byte(-(8 - n)))
	return append(b, be[n:]...)
}

// appendInt is gob's signed integer: the sign in the lowest bit.
func appendInt(b []byte, i int64) []byte {
	var u uint64
	if i < 0 {
		u = uint64(^i<<1) | 1
	} else {
		u = uint64(i << 1)
	}
	return appendUint(b, u)
}

// readUint reads one gob unsigned integer and its width.
func readUint(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	if b[0] < 128 {
		return uint64(b[0]), 1, nil
	}
	n := int(-int8(b[0]))
	if n > 8 || len(b) < 1+n {
		return 0, 0, fmt.Errorf("bad gob integer")
	}
	var x uint64
	for _, c := range b[1 : 1+n] {
		x = x<<8 | uint64(c)
	}
	return x, 1 + n, nil
}
