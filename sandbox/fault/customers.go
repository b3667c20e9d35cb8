package fault

import "net/http"

// Faults of the area "Customers" (the registry: fault.go).

var (
	CustEmailOptional = declare("Customers", "customer-email-optional", "A customer registration without email is accepted.",
		"CUST-02")
	CustListDropsNewest = declare("Customers", "customer-list-drops-newest", "GET /cards/customers leaves out the most recent registration.",
		"CUST-07")
	CustNotApproved = declare("Customers", "customer-not-approved", "Registration leaves the customer's verification PENDING, so its customerId cannot issue cards.",
		"CUST-06")
)

var _ = declareMember("Customers", "customer-id-missing", "The registration answer carries no customerId.",
	http.MethodPost, pathIs("/cards/customers"),
	func(top map[string]any) {
		if d := dataMember(top); d != nil {
			delete(d, "customerId")
		}
		delete(top, "customerId")
	}, "CUST-01")
