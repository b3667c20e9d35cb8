package sandbox

// Faults of the area "Card status" (the registry: faults.go).

var (
	fStatusFreezeNotPersisted = declareFault("Card status", "status-freeze-not-persisted", "PATCH status=FROZEN answers FROZEN but the card stays ACTIVE.",
		"STATUS-03")
	fStatusFreezeSweeps = declareFault("Card status", "status-freeze-sweeps-balance", "Freezing a card sweeps its balance to the vault instead of keeping it.",
		"STATUS-05")
	fStatusUnfreezeNotPersisted = declareFault("Card status", "status-unfreeze-not-persisted", "PATCH status=ACTIVE answers ACTIVE but a FROZEN card stays FROZEN.",
		"STATUS-04")
)
