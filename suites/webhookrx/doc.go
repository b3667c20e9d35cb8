// Package webhookrx is the suites' webhook receiver: a bounded listener
// keeping what reaches it (webhook_receiver.go), a spec's receiver set
// through the sandbox controls or the one listening at a pre-configured URL,
// and the signature check of every awaited delivery
// (webhook_preconfigured.go). It imports the framework, never the reverse;
// the specs import it by name (webhookrx.WithReceiver).
package webhookrx
