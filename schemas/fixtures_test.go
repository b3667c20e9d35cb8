package schemas

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// Valid samples, built fresh for every use so tests can mutate them.

const (
	testPAN    = "4111 1111 1111 1234"
	testPANRaw = "4111111111111234"
	testCVV    = "739"
	testJWT    = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJtZXJfZGVtb19hbHBoYSIsImVudiI6IlRFU1QifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
	testSecret = "sk_test_alpha_7f3a9c2e51d84b06"
	testTS     = "2026-11-22T03:16:18.123Z"
)

type obj = map[string]any

func billing() obj {
	return obj{"street": "1 Sandbox Way", "city": "San Francisco", "state": "CA", "postalCode": "94105", "country": "US"}
}

func card() obj {
	return obj{
		"id": "crd_8f2c01ab", "cardType": "VIRTUAL", "cardBrand": "VISA",
		"maskedPan": "411111******1234", "nameOnCard": "Ada Lovelace",
		"balanceAmount": 25.5, "currency": "USD", "status": "ACTIVE",
		"createdStatus": "COMPLETED", "reference": "card_ref_1",
		"billingAddress": billing(), "colorTheme": "midnight",
		"createdAt": testTS, "updatedAt": "2026-11-22T03:17:00Z",
	}
}

func secure() obj {
	return obj{
		"cardId": "crd_8f2c01ab", "reference": "card_ref_1", "maskedPan": "411111******1234",
		"cardNumber": testPAN, "pan": testPAN, "cvv": testCVV,
		"expiryMonth": "11", "expiryYear": "2029", "expirationDate": "11/29",
		"nameOnCard": "Ada Lovelace", "billingAddress": billing(),
	}
}

func config() obj {
	return obj{"environment": "TEST", "creationFee": 1.0, "fundFee": 1.0, "withdrawalFee": 0.05,
		"minFunding": 1.0, "exchangeRate": 1550.0, "vaultBalance": 9974.0}
}

func token() obj {
	return obj{"accessToken": testJWT, "tokenType": "Bearer", "expiresIn": 900, "environment": "TEST", "merchantId": "mer_demo_alpha"}
}

func limits() obj {
	return obj{"transactionLimit": 100.0, "dailyLimit": 500.0, "monthlyLimit": 2000.0, "allTimeLimit": nil}
}

func giftOrder() obj {
	return obj{
		"status": "success", "reference": "gft_01", "transactionId": "GCT_9a8b",
		"productCode": "AMAZON_US", "productName": "Amazon.com", "currency": "USD",
		"faceValue": 25.0, "costNgn": 39000.0,
		"voucher":     obj{"code": "AMZN-7Q2F-KX9D", "pin": "4821", "serialNumber": "SN-0001", "instructions": "Redeem at amazon.com"},
		"recipient":   obj{"email": "ada@example.com", "name": "Ada"},
		"orderStatus": "SUCCESS", "isSuccessful": true, "environment": "TEST", "createdAt": testTS,
	}
}

func envA(data any) obj {
	return obj{"status": "success", "data": data, "timestamp": testTS, "path": "/v1/merchant/cards"}
}

func envB(data obj) obj {
	return obj{"success": true, "message": "ok", "data": data, "timestamp": testTS}
}

func errEnv() obj {
	return obj{"status": "error", "statusCode": 400, "message": []any{"amount must not be less than 1"},
		"error": "Bad Request", "timestamp": testTS, "path": "/v1/merchant/cards"}
}

func cardList(n int) obj {
	cards := make([]any, n)
	for i := range cards {
		c := card()
		c["id"] = "crd_" + strconv.Itoa(1000+i)
		c["reference"] = "ref_" + strconv.Itoa(i)
		cards[i] = c
	}
	return envA(cards)
}

func webhook() obj {
	return envB(obj{"event_type": "virtualcard.transaction.authorization", "reference": "SIMULATE_AUTHORIZATION_9f2c01ab",
		"callback_url": "http://127.0.0.1:9999/hook", "dispatched": true, "skip_reason": nil})
}

// valid returns one valid sample for every schema name.
func valid() map[string]obj {
	return map[string]obj{
		EnvelopeA:                 envA(obj{"anything": 1}),
		EnvelopeB:                 envB(obj{}),
		ErrorEnvelope:             errEnv(),
		GiftNotFound:              {"statusCode": 404, "message": "Gift card order with reference 'x' not found", "error": "Not Found"},
		GiftOrder:                 giftOrder(),
		Card:                      card(),
		SecureDetails:             secure(),
		CardConfig:                config(),
		AccessToken:               token(),
		SpendLimits:               limits(),
		BillingAddr:               billing(),
		TokenResponse:             envA(token()),
		ConfigResponse:            envA(config()),
		CardResponse:              envA(card()),
		CardListResponse:          cardList(3),
		SecureResponse:            envA(secure()),
		WithdrawResponse:          envA(obj{"message": "Withdrew 5.00 USD to the vault", "card": card()}),
		SpendLimitsResponse:       envA(obj{"message": "Spend limits updated", "cardId": "crd_8f2c01ab", "spendLimits": limits()}),
		StatusResponse:            envA(obj{"message": "Card status updated to FROZEN", "card": card()}),
		ContactResponse:           envB(obj{"success": true, "message": "Contact details updated with the card provider"}),
		WebhookSimulationResponse: webhook(),
		GiftOrderResponse:         giftOrder(),
		CustomerResponse:          envA(obj{"customerId": "cus_1"}),
		CustomerListResponse:      envA([]any{obj{"customerId": "cus_1"}}),
		CardIssuanceResponse:      envA(card()),
		GiftQuoteResponse:         envA(obj{"totalNgn": 39000.0}),
		GiftPurchaseResponse:      envA(giftOrder()),
		GiftLookupResponse:        envA(giftOrder()),
		BettingQuoteResponse:      envA(obj{"fee": 75.0}),
	}
}

// with returns v with the value at the JSON pointer replaced (or added).
func with(v obj, ptr string, val any) obj {
	parent, last := walkTo(v, ptr)
	switch p := parent.(type) {
	case obj:
		p[last] = val
	case []any:
		i, _ := strconv.Atoi(last)
		p[i] = val
	}
	return v
}

// without returns v with the member at the JSON pointer removed.
func without(v obj, ptr string) obj {
	parent, last := walkTo(v, ptr)
	delete(parent.(obj), last)
	return v
}

func walkTo(v obj, ptr string) (any, string) {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	var cur any = v
	for _, t := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case obj:
			cur = c[t]
		case []any:
			i, _ := strconv.Atoi(t)
			cur = c[i]
		}
	}
	return cur, toks[len(toks)-1]
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
