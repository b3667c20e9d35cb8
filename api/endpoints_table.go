package api

import (
	"net/url"
	"strings"

	"github.com/merchant-harness/mph/schemas"
)

// endpointTable is the one table of the API's operations: the document's
// endpoints 1-17 in its order, card issuance after the listing. The bodies'
// members and constraints are in endpoints_bodies.go.
func endpointTable(issuance string) []Endpoint {
	card := []Param{{Name: "id", Of: ResCard}}
	return []Endpoint{
		{Method: "POST", Template: "/auth/token", Schema: schemas.TokenResponse, Requirement: "AUTH-01", Envelope: EnvelopeA,
			Slug: "token", Effect: Read, Body: tokenBody},
		{Method: "GET", Template: "/cards/config", Schema: schemas.ConfigResponse, Requirement: "CONFIG-01", Envelope: EnvelopeA,
			Slug: "config", Effect: Read},
		{Method: "POST", Template: "/cards/customers", Schema: schemas.CustomerResponse, Requirement: "ENV-02", Envelope: EnvelopeA, NotShown: true,
			Slug: "customer-create", Effect: Write, Body: customerBody},
		{Method: "GET", Template: "/cards/customers", Schema: schemas.CustomerListResponse, Requirement: "ENV-02", Envelope: EnvelopeA, NotShown: true,
			Slug: "customer-list", Effect: Read, Carries: ListsCustomers},
		{Method: "GET", Template: "/cards", Schema: schemas.CardListResponse, Requirement: "LIST-01", Envelope: EnvelopeA,
			Slug: "card-list", Effect: Read, Carries: ListsCards | CarriesCard},
		{Method: "POST", Template: issuance, Schema: schemas.CardIssuanceResponse, Requirement: "ENV-02", Envelope: EnvelopeA, NotShown: true, Order: "issuance",
			Slug: "issuance", Effect: MoneyWrite, Body: issuanceBody, Carries: CarriesCard},
		{Method: "GET", Template: "/cards/{id}", Schema: schemas.CardResponse, Requirement: "GET-01", Envelope: EnvelopeA,
			Slug: "card", Params: card, Effect: Read, Carries: CarriesCard, NotFound: NotFoundEnvelope},
		{Method: "GET", Template: "/cards/{id}/secure", Schema: schemas.SecureResponse, Requirement: "SECURE-01", Envelope: EnvelopeA,
			Slug: "card-secure", Params: card, Effect: Read, Carries: CarriesSecure, NotFound: NotFoundEnvelope},
		{Method: "POST", Template: "/cards/{id}/withdraw", Schema: schemas.WithdrawResponse, Requirement: "WITHDRAW-01", Envelope: EnvelopeA,
			Slug: "withdraw", Params: card, Effect: MoneyWrite, Body: withdrawBody, Carries: CarriesCard, NotFound: NotFoundEnvelope},
		{Method: "PUT", Template: "/cards/{id}/spend-limits", Schema: schemas.SpendLimitsResponse, Requirement: "LIMITS-01", Envelope: EnvelopeA,
			Slug: "spend-limits", Params: card, Effect: Write, Body: limitsBody, NotFound: NotFoundEnvelope},
		{Method: "PATCH", Template: "/cards/{id}/status", Schema: schemas.StatusResponse, Requirement: "STATUS-01", Envelope: EnvelopeA,
			Slug: "card-status", Params: card, Effect: Write, Body: statusBody, Carries: CarriesCard, NotFound: NotFoundEnvelope},
		{Method: "PATCH", Template: "/cards/{id}/contact", Schema: schemas.ContactResponse, Requirement: "CONTACT-01", Envelope: EnvelopeB,
			Slug: "card-contact", Params: card, Effect: Write, Body: contactBody, NotFound: NotFoundEnvelope},
		{Method: "POST", Template: "/cards/{id}/simulate-webhook", Schema: schemas.WebhookSimulationResponse, Requirement: "WEBHOOK-01", Envelope: EnvelopeB,
			Slug: "simulate-webhook", Params: card, Effect: Write, TestOnly: true, Body: simulateBody, NotFound: NotFoundEnvelope},
		{Method: "GET", Template: "/gift-cards/quote", Schema: schemas.GiftQuoteResponse, Requirement: "QUOTE-01", Envelope: EnvelopeNone, NotShown: true,
			Slug: "gift-quote", Effect: Read, Query: GiftQuoteQuery},
		{Method: "POST", Template: "/gift-cards/purchase", Schema: schemas.GiftPurchaseResponse, Requirement: "GIFT-01", Envelope: EnvelopeNone, NotShown: true, Order: "gift",
			Slug: "gift-purchase", Effect: MoneyWrite, Body: purchaseBody, Carries: CarriesGiftOrder,
			OrderAt: func(p *Profile) string { return p.GiftCards.Purchase.OrderPointer }},
		{Method: "GET", Template: "/gift-cards/verify/{reference}", Schema: schemas.GiftOrderResponse, Requirement: "GIFT-05", Envelope: EnvelopeFlat,
			Slug: "gift-verify", Params: []Param{{Name: "reference", Of: ResGiftOrder}}, Effect: Read, Carries: CarriesGiftOrder, NotFound: NotFoundGift,
			OrderAt: func(*Profile) string { return "" }},
		{Method: "GET", Template: "/gift-cards/transactions/{reference}", Schema: schemas.GiftLookupResponse, Requirement: "GIFT-17", Envelope: EnvelopeNone, NotShown: true,
			Slug: "gift-lookup", Params: []Param{{Name: "reference", Of: ResGiftTransaction}}, Effect: Read, Carries: CarriesGiftOrder, NotFound: NotFoundGift,
			OrderAt: func(p *Profile) string { return p.GiftCards.LookupOrderPointer }},
		{Method: "GET", Template: "/betting/quote", Schema: schemas.BettingQuoteResponse, Requirement: "QUOTE-02", Envelope: EnvelopeNone, NotShown: true,
			Slug: "betting-quote", Effect: Read, Query: BettingQuoteQuery},
	}
}

// GiftQuoteQuery is a gift quote's query: the profile's parameters with
// {productCode} and {amount} replaced by its product and face value.
func GiftQuoteQuery(p *Profile) url.Values {
	g := p.GiftCards
	q := url.Values{}
	for k, v := range g.Quote.Params {
		v = strings.ReplaceAll(v, "{productCode}", g.ProductCode)
		v = strings.ReplaceAll(v, "{amount}", g.FaceValue)
		q.Set(k, v)
	}
	return q
}

// BettingQuoteQuery is a betting quote's query: the profile's parameters.
func BettingQuoteQuery(p *Profile) url.Values {
	q := url.Values{}
	for k, v := range p.Betting.Quote.Params {
		q.Set(k, v)
	}
	return q
}
