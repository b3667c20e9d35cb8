package suites

import (
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"
)

//go:embed inventory.yaml
var inventoryYAML []byte

// InventoryEntry is one spec of the committed conformance inventory.
type InventoryEntry struct {
	ID           string   `yaml:"id"`
	Text         string   `yaml:"text"`
	Requirements []string `yaml:"requirements,flow"`
	// Formerly are the IDs the spec had before; a waiver naming one is told
	// the new ID, a baseline is translated.
	Formerly []string `yaml:"formerly,omitempty,flow"`
}

// Inventory returns the committed inventory (suites/inventory.yaml), which
// TestSpecInventory keeps equal to the spec tree.
func Inventory() ([]InventoryEntry, error) {
	var out []InventoryEntry
	if err := yaml.Unmarshal(inventoryYAML, &out); err != nil {
		return nil, fmt.Errorf("suites/inventory.yaml: %w", err)
	}
	return out, nil
}

// Renamed maps every former spec ID to the spec's current ID.
func Renamed() map[string]string {
	inv, err := Inventory()
	if err != nil {
		panic(err) // embedded and checked by a test
	}
	out := map[string]string{}
	for _, e := range inv {
		for _, f := range e.Formerly {
			out[f] = e.ID
		}
	}
	return out
}
