package probe

import (
	"errors"
	"slices"
	"testing"
)

// The ladder climbs geometrically up to its maximum and stops where its
// step says, or on an error.
func TestClimb(t *testing.T) {
	for _, c := range []struct {
		name     string
		stopAt   float64 // the step stops at this rate (0: never)
		errAt    float64
		want     float64
		wantErr  bool
		wantSeen []float64
	}{
		{name: "stops", stopAt: 40, want: 40, wantSeen: []float64{10, 20, 40}},
		{name: "reaches the maximum", want: 0, wantSeen: []float64{10, 20, 40, 80}},
		{name: "error", errAt: 20, want: 20, wantErr: true, wantSeen: []float64{10, 20}},
	} {
		var seen []float64
		got, err := climb(10, 2, 100, func(r float64) (bool, error) {
			seen = append(seen, r)
			if r == c.errAt {
				return false, errors.New("step failed")
			}
			return r == c.stopAt, nil
		})
		if got != c.want || (err != nil) != c.wantErr || !slices.Equal(seen, c.wantSeen) {
			t.Errorf("%s: climb = %v, %v after %v; want %v after %v", c.name, got, err, seen, c.want, c.wantSeen)
		}
	}
}
