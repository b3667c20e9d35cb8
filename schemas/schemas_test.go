package schemas

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
)

type want struct{ ptr, rule string }

func TestValidSamples(t *testing.T) {
	samples := valid()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			s, ok := samples[name]
			if !ok {
				t.Fatalf("no valid sample for %s", name)
			}
			if err := Validate(name, mustJSON(t, s)); err != nil {
				t.Fatalf("valid sample rejected: %v", err)
			}
		})
	}
}

// Unknown extra fields are allowed everywhere (the document never forbids them).
func TestExtraFieldsAllowed(t *testing.T) {
	for name, s := range valid() {
		s["unexpectedExtra"] = obj{"nested": true}
		if d, ok := s["data"].(obj); ok {
			d["anotherExtra"] = []any{1, "x"}
		}
		if err := Validate(name, mustJSON(t, s)); err != nil {
			t.Errorf("%s: extra fields rejected: %v", name, err)
		}
	}
}

// More valid variants: what the document leaves open must pass.
func TestValidVariants(t *testing.T) {
	cases := []struct {
		name, schema string
		body         obj
	}{
		{"maskedPan with X", Card, with(card(), "/maskedPan", "411111XXXXXX1234")},
		{"maskedPan with x", Card, with(card(), "/maskedPan", "411111xxxxxx1234")},
		{"maskedPan with bullets", Card, with(card(), "/maskedPan", "411111••••••1234")},
		{"maskedPan grouped", Card, with(card(), "/maskedPan", "4111 11** **** 1234")},
		{"createdStatus not pinned", Card, with(card(), "/createdStatus", "PENDING")},
		{"cardBrand any string", Card, with(card(), "/cardBrand", "MASTERCARD")},
		{"FROZEN", Card, with(card(), "/status", "FROZEN")},
		{"integer balance", Card, with(card(), "/balanceAmount", 0)},
		{"negative balance not excluded", Card, with(card(), "/balanceAmount", -1.5)},
		{"lower-case country", BillingAddr, with(billing(), "/country", "us")},
		{"UTC as +00:00", Card, with(card(), "/createdAt", "2026-11-22T03:16:18+00:00")},
		{"envelope timestamp with offset", EnvelopeA, with(envA(obj{}), "/timestamp", "2026-11-22T04:16:18+01:00")},
		{"envelope data array", EnvelopeA, envA([]any{})},
		{"path with /api prefix", CardResponse, with(envA(card()), "/path", "/api/v1/merchant/cards/crd_1")},
		{"empty card list", CardListResponse, envA([]any{})},
		{"error message string", ErrorEnvelope, with(errEnv(), "/message", "Virtual card not found")},
		{"full error envelope as gift 404", GiftNotFound, with(with(errEnv(), "/statusCode", 404), "/message", "Gift card order with reference 'r1' not found")},
		{"LIVE token", AccessToken, with(token(), "/environment", "LIVE")},
		{"expiresIn 900.0", TokenResponse, envA(with(token(), "/expiresIn", 900.0))},
		{"minFunding 1.00", CardConfig, with(config(), "/minFunding", 1.00)},
		{"all limits null", SpendLimits, obj{"transactionLimit": nil, "dailyLimit": nil, "monthlyLimit": nil, "allTimeLimit": nil}},
		{"processing order, voucher locked", GiftOrder, with(with(with(with(giftOrder(), "/orderStatus", "PROCESSING"), "/isSuccessful", false), "/voucher/code", ""), "/voucher/pin", "")},
		{"orderStatus is not an enum", GiftOrder, with(with(giftOrder(), "/orderStatus", "FAILED"), "/isSuccessful", false)},
		{"not dispatched, with reason", WebhookSimulationResponse, with(with(with(webhook(), "/data/dispatched", false), "/data/skip_reason", "no_webhook_url_configured"), "/data/callback_url", "")},
		{"dispatched, each kind", WebhookSimulationResponse, with(webhook(), "/data/event_type", "virtualcard.transaction.reversed")},
		{"contact success false", ContactResponse, with(envB(obj{"success": false, "message": "x"}), "/success", false)},
		{"customer list any data", CustomerListResponse, envA(obj{"items": []any{}})},
		{"gift quote any object", GiftQuoteResponse, obj{"productCode": "AMAZON_US"}},
		{"betting quote any object", BettingQuoteResponse, obj{}},
		// Relaxed: what the document leaves open passes (each cites its open point).
		{"error with three members (OPEN-ERROR-ENVELOPE-MEMBERS)", ErrorEnvelope, without(without(without(errEnv(), "/path"), "/timestamp"), "/status")},
		{"error statusCode 400.0 (OPEN-JSON-NUMBER-FORM)", ErrorEnvelope, with(errEnv(), "/statusCode", 400.0)},
		{"gift order sparse while PROCESSING (OPEN-GIFT-ORDER-PRESENCE)", GiftOrder, obj{"orderStatus": "PROCESSING", "isSuccessful": false}},
		{"gift voucher absent while PROCESSING", GiftOrder, without(with(with(giftOrder(), "/orderStatus", "PROCESSING"), "/isSuccessful", false), "/voucher")},
		{"gift transactionId null while PROCESSING", GiftOrder, with(with(with(with(giftOrder(), "/orderStatus", "PROCESSING"), "/isSuccessful", false), "/transactionId", nil), "/voucher", nil)},
		{"gift voucher serialNumber and instructions null", GiftOrder, with(with(giftOrder(), "/voucher/serialNumber", nil), "/voucher/instructions", nil)},
		{"gift voucher code null while locked", GiftOrder, with(with(with(giftOrder(), "/orderStatus", "PROCESSING"), "/isSuccessful", false), "/voucher/code", nil)},
		{"gift order without costNgn", GiftOrder, without(giftOrder(), "/costNgn")},
		{"gift order with another status, not fulfilled (OPEN-ORDER-STATUS-VALUES)", GiftOrder, with(with(giftOrder(), "/orderStatus", "PENDING"), "/isSuccessful", false)},
		{"card without optional fields (OPEN-CARD-FIELD-PRESENCE)", Card, obj{"id": "crd_1"}},
		{"card maskedPan null", Card, with(card(), "/maskedPan", nil)},
		{"card createdStatus null or absent", Card, without(with(card(), "/createdStatus", nil), "/createdStatus")},
		{"card billing state and postalCode null (OPEN-BILLING-ADDRESS-MEMBERS)", Card, with(with(card(), "/billingAddress/state", nil), "/billingAddress/postalCode", nil)},
		{"card billing city absent", Card, without(card(), "/billingAddress/city")},
		{"maskedPan grouped with dashes (OPEN-MASKED-PAN-FORM)", Card, with(card(), "/maskedPan", "4111-11XX-XXXX-1234")},
		{"maskedPan masked with dashes", Card, with(card(), "/maskedPan", "411111------1234")},
		{"card id a UUID (OPEN-CARD-ID-FORM)", Card, with(card(), "/id", "crd_0b9f4c2e-8d7a-4f3e-9c1b-2a6d5e4f3c21")},
		{"card response without id", CardResponse, envA(without(card(), "/id"))},
		{"JWE token, five segments (OPEN-JWT-FORM)", AccessToken, with(token(), "/accessToken", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aXY.Y2lwaGVy.dGFn")},
		{"unsecured JWT, empty signature", AccessToken, with(token(), "/accessToken", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")},
		{"tokenType bearer (OPEN-TOKEN-TYPE-CASE)", AccessToken, with(token(), "/tokenType", "bearer")},
		{"token with accessToken and environment only (OPEN-TOKEN-FIELD-PRESENCE)", AccessToken, obj{"accessToken": testJWT, "environment": "TEST"}},
		{"limits unset as absent (OPEN-SPEND-LIMIT-UNSET-FORM)", SpendLimits, obj{"dailyLimit": 10.0}},
		{"limits unset as 0", SpendLimits, obj{"transactionLimit": 0, "dailyLimit": 10.0, "monthlyLimit": 0, "allTimeLimit": 0}},
		{"config exchangeRate null (OPEN-CONFIG-FIELD-PRESENCE)", CardConfig, with(config(), "/exchangeRate", nil)},
		{"config without exchangeRate and environment", CardConfig, without(without(config(), "/exchangeRate"), "/environment")},
		{"secure reference null (OPEN-SECURE-FIELD-PRESENCE)", SecureDetails, with(secure(), "/reference", nil)},
		{"secure PAN as pan only, expiry as expirationDate only", SecureDetails, without(without(without(secure(), "/cardNumber"), "/expiryMonth"), "/expiryYear")},
		{"webhook: none configured (OPEN-CALLBACK-URL-PRESENCE)", WebhookSimulationResponse, with(with(with(webhook(), "/data/dispatched", false), "/data/skip_reason", "no webhook URL configured"), "/data/callback_url", nil)},
		{"webhook: none configured, callback_url absent", WebhookSimulationResponse, without(with(with(webhook(), "/data/dispatched", false), "/data/skip_reason", "no webhook URL configured"), "/data/callback_url")},
		{"webhook: dispatched, skip_reason absent (OPEN-NULL-AS-ABSENT)", WebhookSimulationResponse, without(webhook(), "/data/skip_reason")},
		{"webhook: dispatched, skip_reason empty (OPEN-SKIP-REASON-VALUES)", WebhookSimulationResponse, with(webhook(), "/data/skip_reason", "")},
		{"path prefixed by a gateway base (OPEN-ENVELOPE-PATH-FORM)", EnvelopeA, with(envA(obj{}), "/path", "/payments/v1/merchant/cards?limit=1")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := Validate(c.schema, mustJSON(t, c.body)); err != nil {
				t.Fatalf("rejected: %v", err)
			}
		})
	}
}

func TestInvalidSamples(t *testing.T) {
	processing := func() obj { return with(giftOrder(), "/orderStatus", "SUCCESS") }
	cases := []struct {
		name, schema string
		body         obj
		want         []want
	}{
		// Envelope A
		{"A: missing data", EnvelopeA, without(envA(obj{}), "/data"), []want{{"/data", "required"}}},
		{"A: status not success", EnvelopeA, with(envA(obj{}), "/status", "ok"), []want{{"/status", "const"}}},
		{"A: data a string", EnvelopeA, envA("x"), []want{{"/data", "type"}}},
		{"A: timestamp not ISO", EnvelopeA, with(envA(obj{}), "/timestamp", "22/11/2026 03:16"), []want{{"/timestamp", "format"}}},
		{"A: timestamp date only", EnvelopeA, with(envA(obj{}), "/timestamp", "2026-11-22"), []want{{"/timestamp", "format"}}},
		{"A: timestamp epoch number", EnvelopeA, with(envA(obj{}), "/timestamp", 1763781378), []want{{"/timestamp", "type"}}},
		{"A: path a number", EnvelopeA, with(envA(obj{}), "/path", 1), []want{{"/path", "type"}}},
		{"A: missing path and timestamp", EnvelopeA, without(without(envA(obj{}), "/path"), "/timestamp"), []want{{"/path", "required"}, {"/timestamp", "required"}}},
		// Envelope B
		{"B: success a string", EnvelopeB, with(envB(obj{}), "/success", "true"), []want{{"/success", "type"}}},
		{"B: data an array", EnvelopeB, with(envB(obj{}), "/data", []any{}), []want{{"/data", "type"}}},
		{"B: missing message", EnvelopeB, without(envB(obj{}), "/message"), []want{{"/message", "required"}}},
		{"B: bad timestamp", EnvelopeB, with(envB(obj{}), "/timestamp", "yesterday"), []want{{"/timestamp", "format"}}},
		// Error envelope
		{"error: status success", ErrorEnvelope, with(errEnv(), "/status", "success"), []want{{"/status", "const"}}},
		{"error: statusCode a string", ErrorEnvelope, with(errEnv(), "/statusCode", "400"), []want{{"/statusCode", "type"}}},
		{"error: statusCode not integer", ErrorEnvelope, with(errEnv(), "/statusCode", 400.5), []want{{"/statusCode", "type"}}},
		{"error: statusCode not HTTP", ErrorEnvelope, with(errEnv(), "/statusCode", 99), []want{{"/statusCode", "minimum"}}},
		{"error: message array of numbers", ErrorEnvelope, with(errEnv(), "/message", []any{1}), []want{{"/message/0", "type"}}},
		{"error: message an object", ErrorEnvelope, with(errEnv(), "/message", obj{}), []want{{"/message", "type"}}},
		{"error: missing error", ErrorEnvelope, without(errEnv(), "/error"), []want{{"/error", "required"}}},
		{"error: bad timestamp", ErrorEnvelope, with(errEnv(), "/timestamp", "2026-13-01T00:00:00Z"), []want{{"/timestamp", "format"}}},
		// Gift 404
		{"gift404: statusCode 400", GiftNotFound, with(valid()[GiftNotFound], "/statusCode", 400), []want{{"/statusCode", "const"}}},
		{"gift404: missing error", GiftNotFound, without(valid()[GiftNotFound], "/error"), []want{{"/error", "required"}}},
		{"gift404: missing message", GiftNotFound, without(valid()[GiftNotFound], "/message"), []want{{"/message", "required"}}},
		{"gift404: message a number", GiftNotFound, with(valid()[GiftNotFound], "/message", 7), []want{{"/message", "type"}}},
		// Gift order
		{"gift: status ok", GiftOrder, with(giftOrder(), "/status", "ok"), []want{{"/status", "const"}}},
		{"gift: faceValue a string", GiftOrder, with(giftOrder(), "/faceValue", "25.00"), []want{{"/faceValue", "type"}}},
		{"gift: voucher pin missing", GiftOrder, without(giftOrder(), "/voucher/pin"), []want{{"/voucher/pin", "required"}}},
		{"gift: voucher a string", GiftOrder, with(giftOrder(), "/voucher", "AMZN"), []want{{"/voucher", "type"}, {"/voucher", "type"}}},
		{"gift: recipient email a number", GiftOrder, with(giftOrder(), "/recipient/email", 1), []want{{"/recipient/email", "type"}}},
		{"gift: isSuccessful a string", GiftOrder, with(with(giftOrder(), "/orderStatus", "PROCESSING"), "/isSuccessful", "false"), []want{{"/isSuccessful", "const"}, {"/isSuccessful", "type"}}},
		{"gift: SUCCESS but not successful", GiftOrder, with(processing(), "/isSuccessful", false), []want{{"/isSuccessful", "const"}}},
		{"gift: SUCCESS without voucher code", GiftOrder, with(processing(), "/voucher/code", ""), []want{{"/voucher/code", "minLength"}}},
		{"gift: SUCCESS without voucher pin", GiftOrder, with(processing(), "/voucher/pin", ""), []want{{"/voucher/pin", "minLength"}}},
		{"gift: environment SANDBOX", GiftOrder, with(giftOrder(), "/environment", "SANDBOX"), []want{{"/environment", "enum"}}},
		{"gift: createdAt not UTC", GiftOrder, with(giftOrder(), "/createdAt", "2026-11-22T04:16:18+01:00"), []want{{"/createdAt", "format"}}},
		// Card
		{"card: id without crd_", Card, with(card(), "/id", "card_8f2c01ab"), []want{{"/id", "pattern"}}},
		{"card: id only the prefix", Card, with(card(), "/id", "crd_"), []want{{"/id", "pattern"}}},
		{"card: cardType PHYSICAL", Card, with(card(), "/cardType", "PHYSICAL"), []want{{"/cardType", "const"}}},
		{"card: currency EUR", Card, with(card(), "/currency", "EUR"), []want{{"/currency", "const"}}},
		{"card: status CLOSED", Card, with(card(), "/status", "CLOSED"), []want{{"/status", "enum"}}},
		{"card: status lower case", Card, with(card(), "/status", "active"), []want{{"/status", "enum"}}},
		{"card: balance a string", Card, with(card(), "/balanceAmount", "25.50"), []want{{"/balanceAmount", "type"}}},
		{"card: createdStatus a number", Card, with(card(), "/createdStatus", 1), []want{{"/createdStatus", "type"}}},
		{"card: maskedPan shows 7 leading digits", Card, with(card(), "/maskedPan", "4111111*****1234"), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan shows 5 trailing digits", Card, with(card(), "/maskedPan", "411111*****11234"), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan shows every digit", Card, with(card(), "/maskedPan", testPANRaw), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan is a grouped full PAN", Card, with(card(), "/maskedPan", testPAN), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan 5 leading digits", Card, with(card(), "/maskedPan", "41111*******1234"), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan 5 trailing digits", Card, with(card(), "/maskedPan", "411111**12345"), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan nothing masked", Card, with(card(), "/maskedPan", "4111111234"), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan last 4 only", Card, with(card(), "/maskedPan", "************1234"), []want{{"/maskedPan", "pattern"}}},
		{"card: maskedPan double space", Card, with(card(), "/maskedPan", "4111  11** **** 1234"), []want{{"/maskedPan", "pattern"}}},
		{"card: createdAt with a blank", Card, with(card(), "/createdAt", "2026-11-22 03:16:18"), []want{{"/createdAt", "format"}}},
		{"card: updatedAt not UTC", Card, with(card(), "/updatedAt", "2026-11-22T04:16:18+01:00"), []want{{"/updatedAt", "format"}}},
		{"card: country USA", Card, with(card(), "/billingAddress/country", "USA"), []want{{"/billingAddress/country", "pattern"}}},
		{"card: billing not an object", Card, with(card(), "/billingAddress", "1 Sandbox Way"), []want{{"/billingAddress", "type"}}},
		// Secure details
		{"secure: cardNumber not grouped", SecureDetails, with(secure(), "/cardNumber", testPANRaw), []want{{"/cardNumber", "pattern"}}},
		{"secure: pan grouped with dashes", SecureDetails, with(secure(), "/pan", "4111-1111-1111-1234"), []want{{"/pan", "pattern"}}},
		{"secure: pan 15 digits", SecureDetails, with(secure(), "/pan", "4111 1111 1111 123"), []want{{"/pan", "pattern"}}},
		{"secure: cardNumber a number", SecureDetails, with(secure(), "/cardNumber", 4111111111111234), []want{{"/cardNumber", "type"}}},
		{"secure: expirationDate 13/29", SecureDetails, with(secure(), "/expirationDate", "13/29"), []want{{"/expirationDate", "pattern"}}},
		{"secure: expirationDate MM/YYYY", SecureDetails, with(secure(), "/expirationDate", "11/2029"), []want{{"/expirationDate", "pattern"}}},
		{"secure: expiryMonth one digit", SecureDetails, with(secure(), "/expiryMonth", "1"), []want{{"/expiryMonth", "pattern"}}},
		{"secure: expiryMonth 13", SecureDetails, with(secure(), "/expiryMonth", "13"), []want{{"/expiryMonth", "pattern"}}},
		{"secure: expiryMonth a number", SecureDetails, with(secure(), "/expiryMonth", 11), []want{{"/expiryMonth", "type"}}},
		{"secure: expiryYear 2 digits", SecureDetails, with(secure(), "/expiryYear", "29"), []want{{"/expiryYear", "pattern"}}},
		{"secure: cvv a number", SecureDetails, with(secure(), "/cvv", 739), []want{{"/cvv", "type"}}},
		{"secure: cvv missing", SecureDetails, without(secure(), "/cvv"), []want{{"/cvv", "required"}}},
		{"secure: maskedPan full", SecureDetails, with(secure(), "/maskedPan", testPANRaw), []want{{"/maskedPan", "pattern"}}},
		{"secure: country USA", SecureDetails, with(secure(), "/billingAddress/country", "USA"), []want{{"/billingAddress/country", "pattern"}}},
		// Card configuration
		{"config: environment lower case", CardConfig, with(config(), "/environment", "test"), []want{{"/environment", "enum"}}},
		{"config: minFunding 2", CardConfig, with(config(), "/minFunding", 2), []want{{"/minFunding", "const"}}},
		{"config: vaultBalance a string", CardConfig, with(config(), "/vaultBalance", "9974.00"), []want{{"/vaultBalance", "type"}}},
		{"config: fundFee missing", CardConfig, without(config(), "/fundFee"), []want{{"/fundFee", "required"}}},
		// Access token
		{"token: not a JWT", AccessToken, with(token(), "/accessToken", "not-a-jwt"), []want{{"/accessToken", "pattern"}}},
		{"token: two segments", AccessToken, with(token(), "/accessToken", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0"), []want{{"/accessToken", "pattern"}}},
		{"token: not base64url", AccessToken, with(token(), "/accessToken", "eyJh+bGc.eyJz/dWI.c2ln=="), []want{{"/accessToken", "pattern"}}},
		{"token: expiresIn 899", AccessToken, with(token(), "/expiresIn", 899), []want{{"/expiresIn", "const"}}},
		{"token: expiresIn 3600", AccessToken, with(token(), "/expiresIn", 3600), []want{{"/expiresIn", "const"}}},
		{"token: expiresIn a string", AccessToken, with(token(), "/expiresIn", "900"), []want{{"/expiresIn", "type"}}},
		{"token: environment PROD", AccessToken, with(token(), "/environment", "PROD"), []want{{"/environment", "enum"}}},
		// Spend limits
		{"limits: a string", SpendLimits, with(limits(), "/dailyLimit", "100"), []want{{"/dailyLimit", "type"}}},
		// Billing address
		{"billing: country USA", BillingAddr, with(billing(), "/country", "USA"), []want{{"/country", "pattern"}}},
		{"billing: country one letter", BillingAddr, with(billing(), "/country", "U"), []want{{"/country", "pattern"}}},
		{"billing: postalCode a number", BillingAddr, with(billing(), "/postalCode", 94105), []want{{"/postalCode", "type"}}},
		// Token response
		{"token resp: expiresIn 899", TokenResponse, envA(with(token(), "/expiresIn", 899)), []want{{"/data/expiresIn", "const"}}},
		{"token resp: accessToken not a JWT", TokenResponse, envA(with(token(), "/accessToken", "opaque-token")), []want{{"/data/accessToken", "pattern"}}},
		{"token resp: data an array", TokenResponse, envA([]any{token()}), []want{{"/data", "type"}}},
		{"token resp: missing timestamp", TokenResponse, without(envA(token()), "/timestamp"), []want{{"/timestamp", "required"}}},
		// Config response
		{"config resp: minFunding 0.5", ConfigResponse, envA(with(config(), "/minFunding", 0.5)), []want{{"/data/minFunding", "const"}}},
		// Card response
		{"card resp: maskedPan full", CardResponse, envA(with(card(), "/maskedPan", testPANRaw)), []want{{"/data/maskedPan", "pattern"}}},
		{"card resp: status error", CardResponse, with(envA(card()), "/status", "error"), []want{{"/status", "const"}}},
		// Card list
		{"list: second card maskedPan", CardListResponse, with(cardList(3), "/data/1/maskedPan", testPANRaw), []want{{"/data/1/maskedPan", "pattern"}}},
		{"list: data an object", CardListResponse, envA(card()), []want{{"/data", "type"}}},
		{"list: item not a card", CardListResponse, envA([]any{"crd_1"}), []want{{"/data/0", "type"}}},
		// Secure response
		{"secure resp: cardNumber ungrouped", SecureResponse, envA(with(secure(), "/cardNumber", testPANRaw)), []want{{"/data/cardNumber", "pattern"}}},
		{"secure resp: expirationDate 13/29", SecureResponse, envA(with(secure(), "/expirationDate", "13/29")), []want{{"/data/expirationDate", "pattern"}}},
		// Withdraw
		{"withdraw: card missing", WithdrawResponse, envA(obj{"message": "ok"}), []want{{"/data/card", "required"}}},
		{"withdraw: message a number", WithdrawResponse, envA(obj{"message": 1, "card": card()}), []want{{"/data/message", "type"}}},
		{"withdraw: card balance a string", WithdrawResponse, envA(obj{"message": "ok", "card": with(card(), "/balanceAmount", "1")}), []want{{"/data/card/balanceAmount", "type"}}},
		// Spend limits response
		{"limits resp: spendLimits missing", SpendLimitsResponse, envA(obj{"message": "ok", "cardId": "crd_1"}), []want{{"/data/spendLimits", "required"}}},
		{"limits resp: limit a string", SpendLimitsResponse, envA(obj{"message": "ok", "cardId": "crd_1", "spendLimits": with(limits(), "/dailyLimit", "5")}), []want{{"/data/spendLimits/dailyLimit", "type"}}},
		{"limits resp: cardId a number", SpendLimitsResponse, envA(obj{"message": "ok", "cardId": 1, "spendLimits": limits()}), []want{{"/data/cardId", "type"}}},
		// Status response
		{"status resp: BLOCKED", StatusResponse, envA(obj{"message": "ok", "card": with(card(), "/status", "BLOCKED")}), []want{{"/data/card/status", "enum"}}},
		{"status resp: message missing", StatusResponse, envA(obj{"card": card()}), []want{{"/data/message", "required"}}},
		// Contact
		{"contact: success a string", ContactResponse, envB(obj{"success": "yes", "message": "x"}), []want{{"/data/success", "type"}}},
		{"contact: message missing", ContactResponse, envB(obj{"success": true}), []want{{"/data/message", "required"}}},
		{"contact: envelope A instead of B", ContactResponse, envA(obj{"success": true, "message": "x"}), []want{{"/message", "required"}, {"/success", "required"}}},
		// Webhook simulation
		{"webhook: request value instead of kind", WebhookSimulationResponse, with(webhook(), "/data/event_type", "authorization"), []want{{"/data/event_type", "enum"}}},
		{"webhook: reference prefix", WebhookSimulationResponse, with(webhook(), "/data/reference", "SIM_1"), []want{{"/data/reference", "pattern"}}},
		{"webhook: reference lower case", WebhookSimulationResponse, with(webhook(), "/data/reference", "simulate_1"), []want{{"/data/reference", "pattern"}}},
		{"webhook: not dispatched, null reason", WebhookSimulationResponse, with(webhook(), "/data/dispatched", false), []want{{"/data/skip_reason", "type"}}},
		{"webhook: not dispatched, empty reason", WebhookSimulationResponse, with(with(webhook(), "/data/dispatched", false), "/data/skip_reason", ""), []want{{"/data/skip_reason", "minLength"}}},
		{"webhook: callback_url null", WebhookSimulationResponse, with(webhook(), "/data/callback_url", nil), []want{{"/data/callback_url", "type"}}},
		{"webhook: dispatched a string", WebhookSimulationResponse, with(webhook(), "/data/dispatched", "true"), []want{{"/data/dispatched", "type"}}},
		{"webhook: skip_reason a number", WebhookSimulationResponse, with(webhook(), "/data/skip_reason", 0), []want{{"/data/skip_reason", "type"}}},
		// Gift order response (flat)
		{"verify: wrapped in envelope A", GiftOrderResponse, envA(giftOrder()), []want{{"", "not"}}},
		{"verify: a data member", GiftOrderResponse, with(giftOrder(), "/data", obj{}), []want{{"", "not"}}},
		// Tightened: what the document states and the schemas did not assert.
		{"error: statusCode of a success", ErrorEnvelope, with(errEnv(), "/statusCode", 200), []want{{"/statusCode", "minimum"}}},
		{"error: path not a path", ErrorEnvelope, with(errEnv(), "/path", "v1/merchant/cards"), []want{{"/path", "pattern"}}},
		{"A: path a URL", EnvelopeA, with(envA(obj{}), "/path", "https://api.example/v1/merchant/cards"), []want{{"/path", "pattern"}}},
		{"gift: PROCESSING but successful", GiftOrder, with(giftOrder(), "/orderStatus", "PROCESSING"), []want{{"/isSuccessful", "const"}, {"/orderStatus", "not"}}},
		{"gift: successful without voucher", GiftOrder, without(with(giftOrder(), "/orderStatus", "DELIVERED"), "/voucher"), []want{{"/voucher", "required"}}},
		{"gift: successful with a locked voucher", GiftOrder, with(with(giftOrder(), "/orderStatus", "DELIVERED"), "/voucher/pin", nil), []want{{"/voucher/pin", "type"}}},
		{"gift: SUCCESS without isSuccessful", GiftOrder, without(giftOrder(), "/isSuccessful"), []want{{"/isSuccessful", "required"}}},
		{"gift: SUCCESS with a null voucher", GiftOrder, with(giftOrder(), "/voucher", nil), []want{{"/voucher", "type"}}},
		{"secure: no PAN", SecureDetails, without(without(secure(), "/cardNumber"), "/pan"), []want{{"/cardNumber", "required"}, {"/pan", "required"}}},
		{"secure: no expiry", SecureDetails, without(without(without(secure(), "/expiryMonth"), "/expiryYear"), "/expirationDate"), []want{{"/expirationDate", "required"}, {"/expiryMonth", "required"}, {"/expiryYear", "required"}}},
		{"token: environment missing", AccessToken, without(token(), "/environment"), []want{{"/environment", "required"}}},
		{"token: four segments", AccessToken, with(token(), "/accessToken", "a.b.c.d"), []want{{"/accessToken", "pattern"}}},
		{"token: tokenType Basic", AccessToken, with(token(), "/tokenType", "Basic"), []want{{"/tokenType", "pattern"}}},
		{"webhook: dispatched without callback_url", WebhookSimulationResponse, without(webhook(), "/data/callback_url"), []want{{"/data/callback_url", "required"}}},
		{"card resp: balance missing", CardResponse, envA(without(card(), "/balanceAmount")), []want{{"/data/balanceAmount", "required"}}},
		{"withdraw: card without updatedAt", WithdrawResponse, envA(obj{"message": "ok", "card": without(card(), "/updatedAt")}), []want{{"/data/card/updatedAt", "required"}}},
		{"status resp: card without status", StatusResponse, envA(obj{"message": "ok", "card": without(card(), "/status")}), []want{{"/data/card/status", "required"}}},
		{"config: vaultBalance missing", CardConfig, without(config(), "/vaultBalance"), []want{{"/vaultBalance", "required"}}},
		// Not shown: only the envelope is asserted.
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertViolations(t, c.schema, mustJSON(t, c.body), c.want)
		})
	}
}

// Bodies that are not objects, or not JSON at all.
func TestNonObjectBodies(t *testing.T) {
	cases := []struct {
		name, schema, body string
		want               []want
	}{
		{"string for purchase", GiftPurchaseResponse, `"ok"`, []want{{"", "type"}}},
		{"null for lookup", GiftLookupResponse, `null`, []want{{"", "type"}}},
		{"number for betting", BettingQuoteResponse, `1`, []want{{"", "type"}}},
		{"array for card", CardResponse, `[]`, []want{{"", "type"}}},
		{"not JSON", CardResponse, `<html>502 Bad Gateway</html>`, []want{{"", "json"}}},
		{"empty body", ErrorEnvelope, ``, []want{{"", "json"}}},
		{"trailing garbage", EnvelopeA, `{"status":"success"} x`, []want{{"", "json"}}},
		{"two values", EnvelopeA, `{} {}`, []want{{"", "json"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertViolations(t, c.schema, []byte(c.body), c.want)
		})
	}
}

func assertViolations(t *testing.T, schema string, body []byte, wants []want) {
	t.Helper()
	err := Validate(schema, body)
	if err == nil {
		t.Fatalf("%s accepted %s", schema, body)
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %T: %v", err, err)
	}
	if ve.Schema != schema {
		t.Errorf("Schema = %q, want %q", ve.Schema, schema)
	}
	var got, exp []string
	for _, v := range ve.Violations {
		got = append(got, v.Pointer+" "+v.Rule)
		if v.Message == "" || v.Location == "" && v.Rule != "json" {
			t.Errorf("violation without message or location: %+v", v)
		}
	}
	for _, w := range wants {
		exp = append(exp, w.ptr+" "+w.rule)
	}
	sort.Strings(got)
	sort.Strings(exp)
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("violations:\n got  %q\n want %q\n%v", got, exp, err)
	}
}

func TestErrorFormat(t *testing.T) {
	err := Validate(CardResponse, mustJSON(t, envA(with(without(card(), "/balanceAmount"), "/billingAddress/country", "USA"))))
	want := "response does not match schema card-response.json: 2 violation(s)\n" +
		`/data/balanceAmount: required property is missing (rule required, value absent)` + "\n" +
		`/data/billingAddress/country: does not match pattern ^[A-Za-z]{2}$ (rule pattern, value "USA")`
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	var ve *ValidationError
	errors.As(err, &ve)
	if loc := ve.Violations[0].Location; loc != "card-response.json#/properties/data/required" {
		t.Errorf("Location = %q", loc)
	}
	if loc := ve.Violations[1].Location; loc != "billing-address.json#/properties/country/pattern" {
		t.Errorf("Location = %q", loc)
	}
	if got := (Violation{Rule: "json", Message: "m"}).String(); got != "(root): m (rule json, value absent)" {
		t.Errorf("root violation renders as %q", got)
	}
}

func TestUnknownSchema(t *testing.T) {
	for _, name := range []string{"nope.json", "", commonFile} {
		err := Validate(name, []byte(`{}`))
		if !errors.Is(err, ErrUnknownSchema) {
			t.Errorf("Validate(%q) = %v, want ErrUnknownSchema", name, err)
		}
	}
}

// Every exported name constant is a schema and every schema has a constant.
func TestNamesMatchConstants(t *testing.T) {
	consts := []string{
		EnvelopeA, EnvelopeB, ErrorEnvelope, GiftNotFound, GiftOrder, Card, SecureDetails, CardConfig,
		AccessToken, SpendLimits, BillingAddr, TokenResponse, ConfigResponse, CardResponse,
		CardListResponse, SecureResponse, WithdrawResponse, SpendLimitsResponse, StatusResponse,
		ContactResponse, WebhookSimulationResponse, GiftOrderResponse, CustomerResponse,
		CustomerListResponse, CardIssuanceResponse, GiftQuoteResponse, GiftPurchaseResponse,
		GiftLookupResponse, BettingQuoteResponse,
	}
	sort.Strings(consts)
	if got := strings.Join(Names(), ","); got != strings.Join(consts, ",") {
		t.Fatalf("Names() = %s\nconstants = %s", got, strings.Join(consts, ","))
	}
}

func TestConcurrentValidate(t *testing.T) {
	body := mustJSON(t, cardList(5))
	bad := mustJSON(t, with(cardList(5), "/data/2/status", "X"))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if err := Validate(CardListResponse, body); err != nil {
					errs <- err
					return
				}
				if err := Validate(CardListResponse, bad); err == nil {
					errs <- fmt.Errorf("bad body accepted")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkValidateCardList50(b *testing.B) {
	body := mustJSON(b, cardList(50))
	if err := Validate(CardListResponse, body); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Validate(CardListResponse, body); err != nil {
			b.Fatal(err)
		}
	}
}

// Answers whose body is not shown: any JSON object or array passes, nothing
// else does (OPEN-NOT-SHOWN-ANSWERS).
func TestNotShownAnswersAreOnlyShapes(t *testing.T) {
	for _, c := range []struct {
		schema, body string
		ok           bool
	}{
		{CustomerResponse, `{"customerId":"cus_1"}`, true},
		{CustomerResponse, `[{"customerId":"cus_1"}]`, true},
		{CustomerResponse, `"cus_1"`, false},
		{CustomerListResponse, `[{"customerId":"cus_1"}]`, true},
		{CustomerListResponse, `"x"`, false},
		{CardIssuanceResponse, `{"id":"crd_1"}`, true},
		{CardIssuanceResponse, `7`, false},
		{GiftQuoteResponse, `[{"totalNgn":1}]`, true},
		{GiftPurchaseResponse, `"ok"`, false},
	} {
		if err := Validate(c.schema, []byte(c.body)); (err == nil) != c.ok {
			t.Errorf("%s %s: err %v, want ok=%v", c.schema, c.body, err, c.ok)
		}
	}
}
