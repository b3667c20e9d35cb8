package sandbox

// Faults of the area "Contact" (the registry: faults.go).

var (
	fContactLiveRefused = declareFault("Contact", "contact-live-refused", "PATCH contact is refused with 403 for LIVE credentials.",
		"CONTACT-08")
	fContactPlusRefused = declareFault("Contact", "contact-plus-mobile-refused", "PATCH contact refuses a mobile in international form with a leading +.",
		"CONTACT-04")
)
