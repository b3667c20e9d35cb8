package result

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Waiver accepts a known deviation of the target for a while: a failure of
// the specs it names (by spec ID, or every spec verifying a requirement ID)
// is reported as waived instead of failed until it expires.
type Waiver struct {
	ID      string `yaml:"id" json:"id"` // spec ID (withdraw.accepts-minimum-withdrawal) or requirement ID (WITHDRAW-03)
	Reason  string `yaml:"reason" json:"reason"`
	Ticket  string `yaml:"ticket" json:"ticket"`
	Expires string `yaml:"expires" json:"expires"` // YYYY-MM-DD, the last day it applies
	expires time.Time
}

// Describe is the waiver in one line.
func (w *Waiver) Describe() string {
	return fmt.Sprintf("waived by %s until %s (%s): %s", w.Ticket, w.Expires, w.ID, w.Reason)
}

// Expired reports whether the waiver no longer applies at now.
func (w *Waiver) Expired(now time.Time) bool {
	return !now.Before(w.expires.AddDate(0, 0, 1))
}

// Waivers is a loaded waiver file.
type Waivers struct {
	Entries []*Waiver `yaml:"waivers"`
}

var reqIDPattern = regexp.MustCompile(`^[A-Z]+-[0-9]{2}$`)

// KnownIDs says which spec and requirement IDs exist, and which former spec
// IDs were renamed to what (the inventory's formerly).
type KnownIDs struct {
	Spec, Requirement func(string) bool
	Renamed           map[string]string
}

// LoadWaivers reads and validates a waiver file. known says whether an ID
// exists, so that a typo fails the start instead of waiving nothing; a former
// ID is refused with the spec's current one.
func LoadWaivers(path string, known KnownIDs) (*Waivers, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("waivers: %w", err)
	}
	var ws Waivers
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&ws); err != nil {
		return nil, fmt.Errorf("waivers %s: %w", path, err)
	}
	var problems []string
	seen := map[string]bool{}
	for i, w := range ws.Entries {
		where := fmt.Sprintf("entry %d (%s)", i+1, w.ID)
		switch {
		case w.ID == "":
			problems = append(problems, where+": no id")
		case reqIDPattern.MatchString(w.ID) && !known.Requirement(w.ID):
			problems = append(problems, where+": unknown requirement ID")
		case !reqIDPattern.MatchString(w.ID) && known.Renamed[w.ID] != "":
			problems = append(problems, where+": the spec's ID is now "+known.Renamed[w.ID]+" (suites/inventory.yaml): waive it by that ID")
		case !reqIDPattern.MatchString(w.ID) && !known.Spec(w.ID):
			problems = append(problems, where+": unknown spec ID (see mph conform --list)")
		}
		if seen[w.ID] {
			problems = append(problems, where+": waived twice")
		}
		seen[w.ID] = true
		if strings.TrimSpace(w.Reason) == "" || strings.TrimSpace(w.Ticket) == "" {
			problems = append(problems, where+": reason and ticket are required")
		}
		t, err := time.Parse("2006-01-02", w.Expires)
		if err != nil {
			problems = append(problems, where+": expires must be a date YYYY-MM-DD")
		}
		w.expires = t
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("waivers %s:\n  %s", path, strings.Join(problems, "\n  "))
	}
	return &ws, nil
}

// For returns the waiver covering a spec (its ID first, then its
// requirement labels), or nil.
func (ws *Waivers) For(sp Spec) *Waiver {
	if ws == nil {
		return nil
	}
	for _, w := range ws.Entries {
		if w.ID == sp.ID {
			return w
		}
	}
	for _, w := range ws.Entries {
		for _, l := range sp.Labels {
			if l == w.ID {
				return w
			}
		}
	}
	return nil
}

// applyWaivers turns waived failures into Waived, counts an expired waiver's
// failure as failed (saying so) and lists waived specs that now pass.
func applyWaivers(s *Summary, ws *Waivers, now time.Time) {
	if ws == nil {
		return
	}
	if now.IsZero() {
		now = time.Now()
	}
	for i := range s.Specs {
		sp := &s.Specs[i]
		w := ws.For(*sp)
		if w == nil {
			continue
		}
		sp.Waiver = w
		switch {
		case sp.Outcome == Failed && w.Expired(now):
			sp.Note = fmt.Sprintf("waiver %s expired on %s: counted as failed", w.Ticket, w.Expires)
			prefix := "[waiver expired " + w.Expires + "] "
			sp.Headline = prefix + headlineWithin(sp.Message, sp.Details, MaxHeadline-utf8.RuneCountInString(prefix))
		case sp.Outcome == Failed:
			sp.Outcome = Waived
			sp.Note = w.Describe()
		case sp.Outcome == Passed:
			sp.Note = fmt.Sprintf("fixed: remove the waiver %s (%s)", w.ID, w.Ticket)
			s.FixedWaivers = append(s.FixedWaivers, sp.ID)
		}
	}
}
