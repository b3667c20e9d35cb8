package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/internal/hooklisten"
)

// value is a knob's destination: a flag value over one field of Settings,
// parsed alike from the flag and from the environment.
type value interface {
	pflag.Value
	// given reports whether the field holds anything but its zero value
	// (Environ renders only those).
	given() bool
}

// textValue is a string; a URL's password is a secret.
type textValue struct {
	p   *string
	url bool
}

func text(p *string) value             { return textValue{p: p} }
func link(p *string) value             { return textValue{p: p, url: true} }
func (v textValue) Set(s string) error { *v.p = strings.TrimSpace(s); return nil }
func (v textValue) String() string     { return *v.p }
func (v textValue) Type() string       { return "string" }
func (v textValue) given() bool        { return *v.p != "" }

// sendersValue is a webhook receiver's allow-list, checked as it is read.
type sendersValue struct{ textValue }

func senders(p *string) value { return sendersValue{textValue{p: p}} }

func (v sendersValue) Set(s string) error {
	if _, err := hooklisten.AllowedSenders(s); err != nil {
		return err
	}
	return v.textValue.Set(s)
}

// boolValue is a switch; a child's environment says it 1.
type boolValue struct{ p *bool }

func boolean(p *bool) value            { return boolValue{p} }
func (v boolValue) Set(s string) error { return parseBool(s, v.p) }
func (v boolValue) Type() string       { return "bool" }
func (v boolValue) given() bool        { return *v.p }

func (v boolValue) String() string {
	if *v.p {
		return "1"
	}
	return "0"
}

// optBoolValue is a switch that may be left unsaid (nil).
type optBoolValue struct{ p **bool }

func optBoolean(p **bool) value     { return optBoolValue{p} }
func (v optBoolValue) Type() string { return "bool" }
func (v optBoolValue) given() bool  { return *v.p != nil }

func (v optBoolValue) Set(s string) error {
	b := new(bool)
	if err := parseBool(s, b); err != nil {
		return err
	}
	*v.p = b
	return nil
}

func (v optBoolValue) String() string {
	if *v.p == nil {
		return ""
	}
	return strconv.FormatBool(**v.p)
}

func parseBool(s string, p *bool) error {
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return errors.New("not a boolean (1, true, 0, false)")
	}
	*p = b
	return nil
}

// durationValue is a positive duration.
type durationValue struct{ p *time.Duration }

func duration(p *time.Duration) value { return durationValue{p} }
func (v durationValue) Type() string  { return "duration" }
func (v durationValue) given() bool   { return *v.p != 0 }

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return errors.New("not a positive duration (e.g. 10s)")
	}
	*v.p = d
	return nil
}

func (v durationValue) String() string {
	if *v.p == 0 {
		return ""
	}
	return v.p.String()
}

// sizeValue is a positive number of bytes (ByteSize).
type sizeValue struct{ p *int64 }

func size(p *int64) value          { return sizeValue{p} }
func (v sizeValue) Type() string   { return "size" }
func (v sizeValue) given() bool    { return *v.p != 0 }
func (v sizeValue) String() string { b := ByteSize(*v.p); return b.String() }

func (v sizeValue) Set(s string) error {
	var b ByteSize
	if err := b.Set(s); err != nil {
		return err
	}
	*v.p = int64(b)
	return nil
}

// rateValue is a rate >= 0 (0: no cap).
type rateValue struct{ p *float64 }

func rate(p *float64) value      { return rateValue{p} }
func (v rateValue) Type() string { return "rate" }
func (v rateValue) given() bool  { return *v.p != 0 }

func (v rateValue) Set(s string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 {
		return errors.New("not a rate >= 0")
	}
	*v.p = f
	return nil
}

func (v rateValue) String() string {
	if *v.p == 0 {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'f', -1, 64)
}

// spendValue is an amount per currency (ParseMaxSpend).
type spendValue struct{ p *map[string]int64 }

func spend(p *map[string]int64) value { return spendValue{p} }
func (v spendValue) Type() string     { return "amounts" }
func (v spendValue) given() bool      { return *v.p != nil }
func (v spendValue) String() string   { return FormatMaxSpend(*v.p) }

func (v spendValue) Set(s string) error {
	m, err := ParseMaxSpend(s)
	if err != nil {
		return err
	}
	*v.p = m
	return nil
}

// ByteSize is a size: a number of bytes with an optional KiB, MiB or GiB
// suffix (KB, MB, GB are read as the binary units too).
type ByteSize int64

// String renders the size for --help.
func (b *ByteSize) String() string {
	switch v := int64(*b); {
	case v == 0:
		return ""
	case v%(1<<20) == 0:
		return strconv.FormatInt(v>>20, 10) + "MiB"
	case v%(1<<10) == 0:
		return strconv.FormatInt(v>>10, 10) + "KiB"
	default:
		return strconv.FormatInt(v, 10)
	}
}

// Set parses "65536", "64KiB", "1MiB".
func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return fmt.Errorf("%q is not a positive size (e.g. 65536, 64KiB, 1MiB)", s)
	}
	*b = ByteSize(n * mult)
	return nil
}

// Type names the value in --help.
func (b *ByteSize) Type() string { return "size" }
