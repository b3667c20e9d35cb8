package main

import "os"

// noColor is the persistent --no-color flag of every command.
var noColor bool

func init() {
	rootCmd.PersistentFlags().BoolVar(&noColor, "no-color", false, "no ANSI colours (also: NO_COLOR set to any value, TERM=dumb, or output not a terminal)")
}

// useColor decides whether output to f may carry ANSI colour: only on a
// terminal, and never with --no-color, NO_COLOR (any value) or TERM=dumb.
func useColor(f *os.File) bool {
	if noColor {
		return false
	}
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(f)
}

func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
