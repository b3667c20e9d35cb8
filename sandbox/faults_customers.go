package sandbox

// Faults of the area "Customers" (the registry: faults.go).

var (
	fCustEmailOptional = declareFault("Customers", "customer-email-optional", "A customer registration without email is accepted.",
		"CUST-02")
	fCustListDropsNewest = declareFault("Customers", "customer-list-drops-newest", "GET /cards/customers leaves out the most recent registration.",
		"CUST-07")
)
