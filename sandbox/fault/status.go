package fault

import "net/http"

// Faults of the area "Card status" (the registry: fault.go).

var (
	StatusFreezeNotPersisted = declare("Card status", "status-freeze-not-persisted", "PATCH status=FROZEN answers FROZEN but the card stays ACTIVE.",
		"STATUS-03")
	StatusFreezeSweeps = declare("Card status", "status-freeze-sweeps-balance", "Freezing a card sweeps its balance to the vault instead of keeping it.",
		"STATUS-05")
	StatusUnfreezeNotPersisted = declare("Card status", "status-unfreeze-not-persisted", "PATCH status=ACTIVE answers ACTIVE but a FROZEN card stays FROZEN.",
		"STATUS-04")
)

var _ = declareMember("Card status", "status-message-silent", "PATCH status answers the message \"Request completed\", stating no status.",
	http.MethodPatch, pathEnds("/cards/", "/status"),
	func(top map[string]any) {
		if d := dataMember(top); d != nil {
			d["message"] = "Request completed"
		}
	}, "STATUS-01")
