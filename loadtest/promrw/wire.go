// Package promrw pushes a load run's live figures to Prometheus with the
// remote-write protocol (1.0: a snappy-compressed protobuf WriteRequest
// POSTed to the receiver), as k6's Prometheus remote-write output does, so
// that perf engineers see runs, and the shards of one run on many machines,
// in the Grafana dashboards they already use. The protobuf and snappy
// encodings are written here: the WriteRequest needs four messages of two
// fields each, and snappy's block format is a length and a list of literals
// and copies.
package promrw

import (
	"encoding/binary"
	"math"
	"sort"
)

// Label is one name="value" pair of a series.
type Label struct{ Name, Value string }

// Sample is one value at one time (milliseconds since the epoch).
type Sample struct {
	Value     float64
	Timestamp int64
}

// Series is one time series: its labels (the metric name under __name__)
// and its samples.
type Series struct {
	Labels  []Label
	Samples []Sample
}

// appendWriteRequest appends the protobuf encoding of a prometheus.WriteRequest
// holding ss (field 1, repeated TimeSeries). Labels are written sorted by
// name, as the protocol requires.
//
//	message WriteRequest { repeated TimeSeries timeseries = 1; }
//	message TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
//	message Label        { string name = 1; string value = 2; }
//	message Sample       { double value = 1; int64 timestamp = 2; }
func appendWriteRequest(b []byte, ss []Series) []byte {
	var ts, lb []byte
	for _, s := range ss {
		ls := append([]Label(nil), s.Labels...)
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		ts = ts[:0]
		for _, l := range ls {
			lb = appendString(lb[:0], 1, l.Name)
			lb = appendString(lb, 2, l.Value)
			ts = appendBytes(ts, 1, lb)
		}
		for _, sm := range s.Samples {
			lb = appendTag(lb[:0], 1, 1)
			lb = binary.LittleEndian.AppendUint64(lb, math.Float64bits(sm.Value))
			lb = appendTag(lb, 2, 0)
			lb = binary.AppendUvarint(lb, uint64(sm.Timestamp))
			ts = appendBytes(ts, 2, lb)
		}
		b = appendBytes(b, 1, ts)
	}
	return b
}

// appendTag appends a field's key: its number and wire type (0 varint, 1
// 64-bit, 2 length-delimited).
func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendBytes(b []byte, field int, v []byte) []byte {
	b = appendTag(b, field, 2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendString(b []byte, field int, v string) []byte {
	b = appendTag(b, field, 2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// snappyEncode appends the snappy block encoding of src to dst: the
// uncompressed length, then literals and 2-byte-offset copies found with a
// hash table of 4-byte sequences (a greedy match, as snappy's own encoder
// does, simpler). Any valid block decodes with every snappy decoder.
func snappyEncode(dst, src []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(src)))
	const (
		minMatch  = 4
		maxOffset = 1<<16 - 1
		tableBits = 14
	)
	var table [1 << tableBits]int32 // position+1 of the last 4 bytes with this hash
	hash := func(u uint32) uint32 { return (u * 0x1e35a7bd) >> (32 - tableBits) }
	lit := 0 // start of the pending literal
	for i := 0; i+minMatch <= len(src); {
		u := binary.LittleEndian.Uint32(src[i:])
		h := hash(u)
		cand := int(table[h]) - 1
		table[h] = int32(i + 1)
		if cand < 0 || i-cand > maxOffset || binary.LittleEndian.Uint32(src[cand:]) != u {
			i++
			continue
		}
		n := minMatch
		for i+n < len(src) && src[cand+n] == src[i+n] {
			n++
		}
		dst = appendLiteral(dst, src[lit:i])
		dst = appendCopy(dst, i-cand, n)
		i += n
		lit = i
	}
	return appendLiteral(dst, src[lit:])
}

// appendLiteral appends a literal element (tag 00): lengths up to 60 in
// the tag byte, longer ones in the 1 to 4 bytes after it.
func appendLiteral(dst, lit []byte) []byte {
	for len(lit) > 0 {
		n := min(len(lit), 1<<16)
		switch m := n - 1; {
		case m < 60:
			dst = append(dst, byte(m)<<2)
		case m < 1<<8:
			dst = append(dst, 60<<2, byte(m))
		default:
			dst = append(dst, 61<<2, byte(m), byte(m>>8))
		}
		dst = append(dst, lit[:n]...)
		lit = lit[n:]
	}
	return dst
}

// appendCopy appends copies (tag 10: length 1..64, 2-byte offset) for a
// match of length n at offset off.
func appendCopy(dst []byte, off, n int) []byte {
	for n > 0 {
		m := min(n, 64)
		dst = append(dst, byte(m-1)<<2|2, byte(off), byte(off>>8))
		n -= m
	}
	return dst
}
