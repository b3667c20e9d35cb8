package sandbox

// Faults of the area "Card issuance" (the registry: faults.go).

var (
	fIssueDupRef = declareFault("Card issuance", "issue-duplicate-reference-accepted", "A second card with an existing merchant reference is issued instead of 409.",
		"ERR-11")
	fIssueMinOffByCent = declareFault("Card issuance", "issue-min-funding-off-by-cent", "Card issuance accepts an initial funding of 0.99 USD (minimum off by one cent).",
		"ISSUE-03", "ISSUE-09")
	fIssueNoCreationFee = declareFault("Card issuance", "issue-no-creation-fee", "Card issuance debits the vault the funding amount only, without the creation fee.",
		"ISSUE-04")
	fIssueUnknownCustomer = declareFault("Card issuance", "issue-unknown-customer-accepted", "Card issuance for a customer that does not exist creates a card.",
		"ISSUE-07")
	fIssueVaultExclFee = declareFault("Card issuance", "issue-vault-check-excludes-fee", "Vault sufficiency at issuance compares the funding alone, not funding plus fee (the vault can go negative).",
		"ISSUE-05")
	fIssueVaultExactRefused = declareFault("Card issuance", "issue-vault-exact-refused", "Issuance is refused when the vault equals funding plus fee exactly (off by one cent).",
		"ISSUE-05", "ISSUE-04")
	fIssueVaultMsgNoTotal = declareFault("Card issuance", "issue-vault-message-no-total", "The vault shortfall 400 states only the available amount, not the required total.",
		"ERR-14", "ISSUE-05")
)
