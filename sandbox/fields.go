package sandbox

import (
	"regexp"
)

// The forms of the members the handlers check.
var (
	reEmail     = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	rePhone     = regexp.MustCompile(`^\+?[0-9]{7,15}$`)
	reCC        = regexp.MustCompile(`^\+[0-9]{1,4}$`)
	reCountry3  = regexp.MustCompile(`^[A-Z]{3}$`)
	reCountry2  = regexp.MustCompile(`^[A-Z]{2}$`)
	reReference = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	reProvider  = regexp.MustCompile(`^[A-Za-z0-9_]{1,32}$`)
)
