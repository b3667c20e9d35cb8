package fault

// Faults of the area "Contact" (the registry: fault.go).

var (
	ContactLiveRefused = declare("Contact", "contact-live-refused", "PATCH contact is refused with 403 for LIVE credentials.",
		"CONTACT-08")
	ContactPlusRefused = declare("Contact", "contact-plus-mobile-refused", "PATCH contact refuses a mobile in international form with a leading +.",
		"CONTACT-04")
)
