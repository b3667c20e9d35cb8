package summary

// CapacityStep is one trial.
type CapacityStep struct {
	Phase    string  `json:"phase"` // step-up, search, confirm
	Rate     float64 `json:"rate"`
	Achieved float64 `json:"achievedRate"`
	P99Ms    float64 `json:"p99Ms"`
	Errors   float64 `json:"errorRatio"`
	Pass     bool    `json:"pass"`
	Why      string  `json:"why,omitempty"`
}

// CapacityReport is the outcome of a capacity search.
type CapacityReport struct {
	SLO       string         `json:"slo"`
	Capacity  float64        `json:"capacity"` // highest confirmed rate meeting the SLO (0: none)
	Confirmed bool           `json:"confirmed"`
	Steps     []CapacityStep `json:"steps"`
	Note      string         `json:"note,omitempty"`
}
