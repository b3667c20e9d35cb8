package sandbox

// Faults of the area "Withdrawal" (the registry: faults.go).

var (
	fWithdrawNoVaultCredit = declareFault("Withdrawal", "card-withdraw-no-vault-credit", "A withdrawal lowers the card balance but never credits the vault (money disappears).",
		"WITHDRAW-05", "CONFIG-08")
	fWithdrawOverBalance = declareFault("Withdrawal", "card-withdraw-over-balance", "A withdrawal above the card balance succeeds and drives the balance negative.",
		"WITHDRAW-07")
	fWithdrawMinOffByCent = declareFault("Withdrawal", "withdraw-min-off-by-cent", "A withdrawal of 0.09 USD is accepted (minimum off by one cent).",
		"WITHDRAW-03")
	fWithdrawNotPersisted = declareFault("Withdrawal", "withdraw-not-persisted", "A withdrawal answers the lowered balance but the card keeps its old balance.",
		"WITHDRAW-04", "GET-03")
)
