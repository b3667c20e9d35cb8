//go:build !dimensions

package ledger

import "testing"

func TestOpenPointsAndDimensionsAgree(t *testing.T) {
	t.Skip("not applicable until variant.Dimensions() (values with .Name and .OpenPoints) is on main: run go test -tags dimensions ./requirements/ledger")
}
