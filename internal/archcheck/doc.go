// Package archcheck holds the test that keeps ARCHITECTURE.md true: the
// may-import column of its table against the import graph go list gives.
// It has no code of its own.
package archcheck
