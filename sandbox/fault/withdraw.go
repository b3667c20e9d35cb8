package fault

// Faults of the area "Withdrawal" (the registry: fault.go).

var (
	WithdrawNoVaultCredit = declare("Withdrawal", "card-withdraw-no-vault-credit", "A withdrawal lowers the card balance but never credits the vault (money disappears).",
		"WITHDRAW-05", "CONFIG-08")
	WithdrawOverBalance = declare("Withdrawal", "card-withdraw-over-balance", "A withdrawal above the card balance succeeds and drives the balance negative.",
		"WITHDRAW-07")
	WithdrawMinOffByCent = declare("Withdrawal", "withdraw-min-off-by-cent", "A withdrawal of 0.09 USD is accepted (minimum off by one cent).",
		"WITHDRAW-03")
	WithdrawNotPersisted = declare("Withdrawal", "withdraw-not-persisted", "A withdrawal answers the lowered balance but the card keeps its old balance.",
		"WITHDRAW-04", "GET-03")
)
