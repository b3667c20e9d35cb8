package sandbox

import (
	"fmt"
	"sort"
	"strings"
)

// Variant is one document-allowed alternative behaviour: the dual of a Fault.
// A conformance run against a sandbox started with the variant, using the
// variant's profile overlay, must pass; a failure is a false positive of the
// suites (the suites assert something the API document does not state).
type Variant struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Document quotes the API document's words that allow the behaviour.
	Document string `json:"document"`
	// Profile is a target-profile YAML overlay the variant needs ("" for the
	// defaults): what a provider would declare for such a server.
	Profile string `json:"profile,omitempty"`
}

// variantID indexes the variant registry; variantSet holds one bit per
// variant, tested only at the point of the logic the variant changes
// (`s.variants.on(vX)`), like faultSet. Response-shape variants are applied by
// rewriteAnswer (variants_rewrite.go) after the handler ran.
type variantID uint16

const maxVariants = 128

type variantSet struct {
	bits    [maxVariants / 64]uint64
	rewrite bool // some answer is rewritten
}

func (v *variantSet) on(id variantID) bool { return v.bits[id/64]&(1<<(id%64)) != 0 }

func (v *variantSet) set(id variantID) { v.bits[id/64] |= 1 << (id % 64) }

// variantDef is one registered variant: what it switches on when selected.
type variantDef struct {
	Variant
	rewrite bool        // the variant changes answers after the handler
	also    []variantID // other variants' behaviour it includes
}

// variantRegistry holds every variant in declaration order (its variantID).
var variantRegistry []variantDef

// declareVariant registers a document-allowed variant: its name, what the
// sandbox then does, the document's words allowing it, the profile overlay it
// needs, whether it rewrites answers after the handler (variants_rewrite.go),
// and the variants whose behaviour it includes. Its hook tests
// `s.variants.on(vX)`; its probe is in variants_test.go; docs/variants.md is
// generated (mph sandbox --list-variants --format markdown).
func declareVariant(name, desc, doc, profile string, rewrite bool, also ...variantID) variantID {
	if len(variantRegistry) == maxVariants {
		panic("sandbox: too many variants; raise maxVariants")
	}
	variantRegistry = append(variantRegistry, variantDef{Variant{name, desc, doc, profile}, rewrite, also})
	return variantID(len(variantRegistry) - 1)
}

// The variants, by area.
var (
	// envelopes and formats
	vPathWithQuery = declareVariant("envelope-path-with-query", "Envelopes echo the request URL with its query string in path (/v1/merchant/cards?limit=1).",
		`Versioning: "the path value is informational"`, "", true)
	vPathAPIPrefix = declareVariant("envelope-path-api-prefix", "Envelopes echo a path that begins with /api/v1/merchant although the base is /v1/merchant.",
		`Versioning: "Some responses echo a path that begins with /api/v1/merchant and others a path that begins with /v1/merchant"`, "", true)
	vMaskFour = declareVariant("masked-pan-four-mask-chars", "maskedPan masks the middle with four characters: 411111****1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)" (the number of mask characters is not stated)`, "", true)
	vMaskGrouped = declareVariant("masked-pan-grouped-bullets", "maskedPan is grouped in fours with bullet mask characters: 4111 11•• •••• 1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)"`, "", true)
	vColorThemeNull = declareVariant("card-color-theme-null", "Cards carry colorTheme: null.",
		`Card table: "colorTheme | string |" (no note; the document never says which fields are always present)`, "", true)
	vOptionalAbsent = declareVariant("card-optional-fields-absent", "Cards omit colorTheme, cardBrand and billingAddress.",
		`Card table lists the fields without saying which are always present; cardBrand is "e.g. VISA", colorTheme has no note`, "", true)
	vTsOffset = declareVariant("timestamps-utc-offset", "Timestamps end in +00:00 instead of Z.",
		`"ISO 8601 UTC timestamp" (+00:00 is UTC in ISO 8601)`, "", true)
	vTsWholeSeconds = declareVariant("timestamps-whole-seconds", "Timestamps carry no fraction of a second.",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	vTsMicros = declareVariant("timestamps-microseconds", "Timestamps carry microseconds (six fraction digits).",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	vEnvTSLocal = declareVariant("envelope-timestamp-local-offset", "Envelope timestamps are in local time with an offset (+01:00); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)" (UTC is stated for resource timestamps only)`, "", true)
	vAmountsMinimal = declareVariant("amounts-minimal-decimals", "Amounts are rendered with the fewest decimals (5 instead of 5.00, 2.5 instead of 2.50).",
		`"balanceAmount | number" and "All bodies are JSON" (a JSON number has no fixed decimals)`, "", true)
	vExtraMembers = declareVariant("extra-members", "Every answer carries extra members (requestId, meta).",
		`The document lists fields; it never forbids others`, "", true)
	vCvvFour = declareVariant("cvv-four-digits", "Secure details carry a four-digit cvv.",
		`Secure card details: "cvv | string" (no length stated)`, "", true)
	vBrandMastercard = declareVariant("card-brand-mastercard", "Cards are issued on the MASTERCARD network.",
		`Card: "cardBrand | a card network name, e.g. VISA"`, "", false)

	// errors and messages
	vMsgArray = declareVariant("error-message-always-array", "Every error message is an array of strings, also for single errors.",
		`Errors: "message | string or array of strings"`, "", true)
	vGift404Full = declareVariant("gift-404-full-envelope", "The gift order 404 carries the full error envelope (status, timestamp, path).",
		`Errors: "The gift order 404 response is shown with only statusCode, message and error" (shown, not limited)`, "", true)
	vMinimumsBusiness = declareVariant("minimums-as-business-errors", "Amounts below a minimum (funding, withdrawal) are refused with 400 and a single string message.",
		`Errors: 400 for "business constraint failure (for example ... initial card funding below the minimum of 1.00 USD)"; message "string or array of strings"`, "", true)
	vMessagesReworded = declareVariant("error-messages-reworded", "Scenario messages use other wordings with the same meaning (\"No virtual card found ...\").",
		`Scenarios: the message "says", "asks for", "reports" (a meaning, not a sentence)`, "", true)
	vStatusMsgVerbs = declareVariant("status-message-verbs", "PATCH status answers data.message \"Card has been frozen\" / \"Card has been unfrozen\".",
		`PATCH /cards/{id}/status: "message (string stating the new status)"`, "", true)
	vWithdrawAbove422 = declareVariant("withdraw-above-balance-422", "A withdrawal above the card balance is refused with 422.",
		`"Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance ...): not shown"`,
		"errors:\n  status:\n    withdrawAboveBalance: 422\n", true)
	vFrozenSecure403 = declareVariant("frozen-secure-403", "GET /cards/{id}/secure of a FROZEN card is refused with 403.",
		`GET /cards/{id}/secure: "Applies to an active card" (the error for another card is not shown)`,
		"errors:\n  status:\n    frozenCardSecure: 403\n", true)
	vInvalidValue422 = declareVariant("invalid-value-422", "A value outside its documented set (status, event_type, idType, list status) is refused with 422.",
		`"Which error each individual endpoint returns for its other failure conditions (for example ... an invalid status value): not shown"`,
		"errors:\n  status:\n    invalidValue: 422\n", true)

	// rate limits
	vRetryAfterLong = declareVariant("rate-limit-long-retry-after", "429 answers ask for Retry-After: 60 (a 60-second window).",
		`"429 | rate limit exceeded; retry with exponential backoff"; "Numeric rate limits: not shown"`, "", true)
	vNoRetryAfter = declareVariant("rate-limit-no-retry-after", "429 answers carry no Retry-After header.",
		`"429 | rate limit exceeded; retry with exponential backoff" (no header is stated)`, "", true)

	// statuses of success
	vSuccessAlt = declareVariant("success-status-alternates", "Card issuance answers 200 and customer registration 201.",
		`Errors: "200, 201 | success"; issuance and registration answers: not shown`, "", true)

	// card behaviours
	vStatusSameRefused = declareVariant("status-same-refused", "PATCH status to the card's current status is refused with 400 (\"already FROZEN\").",
		`States: only ACTIVE -> FROZEN and FROZEN -> ACTIVE are shown; other failure conditions: not shown`, "", false)
	vWithdrawFrozenRefused = declareVariant("withdraw-frozen-refused", "A withdrawal from a FROZEN card is refused with 403, whatever the amount.",
		`FROZEN: "new authorizations and transactions are refused"; whether a sweep is: not shown`, "", false)
	vLimitsFrozenRefused = declareVariant("limits-frozen-refused", "Setting spend limits on a FROZEN card is refused with 403.",
		`Other failure conditions of each endpoint: not shown`, "", false)
	vLimitsPutReplaces = declareVariant("spend-limits-put-replaces", "PUT spend-limits replaces the whole set: limits not supplied become unset.",
		`PUT /cards/{id}/spend-limits: "each an optional number" (merge or replace is not shown)`, "", false)
	vLimitsUnsetZero = declareVariant("spend-limits-unset-zero", "PUT spend-limits replaces the whole set and shows an unset limit as 0.",
		`"each an optional number"; "A transaction exceeding a configured limit is declined" (how an unset limit is shown is not)`, "", false, vLimitsPutReplaces)
	vCardDupReplay = declareVariant("card-duplicate-reference-replay", "A second issuance with an existing card reference replays the original card (200) instead of 409.",
		`409: "duplicate idempotency reference" (an idempotent replay is the other common meaning)`, "", false)
	vWithdrawFullCredit = declareVariant("withdraw-credits-full-amount", "A withdrawal credits the vault the whole amount (the fee is waived).",
		`"withdrawalFee | fee charged when balance is swept back to the vault" (how it applies is not shown)`,
		"cards:\n  withdrawVaultCredit: amount\n", false)
	vInitialNetFundFee = declareVariant("issuance-balance-net-of-fund-fee", "A new card's balance is the funding minus fundFee.",
		`"fundFee | fee charged per funding operation"; issuance "deducts the creation fee plus the funding amount from the vault"`,
		"issuance:\n  initialBalance: amount-minus-fund-fee\n", false)

	// listing
	vListOldestFirst = declareVariant("list-oldest-first", "GET /cards lists the oldest cards first.",
		`GET /cards: "data = array of Card" (order not shown)`, "", false)
	vListSearchExact = declareVariant("list-search-exact", "GET /cards?search matches a whole name, reference or last 4 digits (case-insensitive), not a substring.",
		`search "matches cardholder name, reference, or last 4 digits of the PAN" (how it matches is not shown)`, "", false)
	vListDefaultActive = declareVariant("list-default-active-only", "GET /cards without status lists ACTIVE cards only.",
		`status "ACTIVE, FROZEN or ALL" is optional; its default is not shown`, "", false)
	vListMax50 = declareVariant("list-max-limit-50", "GET /cards refuses a limit above 50 (the default is also the maximum).",
		`"limit | maximum records returned; default 50" (the maximum is not shown)`,
		"cards:\n  listMaxLimit: 50\n", false)

	// gift cards and quotes
	vGiftTwoStep = declareVariant("gift-verify-two-step", "Verify answers PROCESSING (voucher null) on the first call and SUCCESS on the next.",
		`PROCESSING -> SUCCESS when "upstream reconciliation ... completes with fulfillment" (one call is not promised)`, "", true)
	vGiftDupReplay = declareVariant("gift-duplicate-reference-replay", "A second purchase with an existing order reference replays the original order (200) instead of 409.",
		`409: "duplicate idempotency reference"; verify "does not charge again"`, "", false)
	vLookupVoucherFlat = declareVariant("gift-lookup-voucher-fields", "GET /gift-cards/transactions/{reference} carries the voucher as voucherCode, redemptionPin and redemptionInstructions of the order.",
		`"Returns the purchase with voucher code, redemption PIN and instructions. Response body of gift transaction lookup: not shown"`,
		"giftCards:\n  lookupVoucher:\n    code: /voucherCode\n    pin: /redemptionPin\n    instructions: /redemptionInstructions\n", true)
	vGiftQuoteFlat = declareVariant("gift-quote-flat", "GET /gift-cards/quote answers the quote fields at top level, without an envelope.",
		`"Query parameters and response of the gift quote: not shown"`,
		"giftCards:\n  quote:\n    subtotalPointer: /subtotalNgn\n    feePointer: /feeNgn\n    totalPointer: /totalNgn\n", true)
	vGiftLookupFlat = declareVariant("gift-lookup-flat", "GET /gift-cards/transactions/{reference} answers the order at top level.",
		`"Response body of gift transaction lookup: not shown"`,
		"giftCards:\n  lookupOrderPointer: \"\"\n", true)

	vNotShownFlat = declareVariant("not-shown-answers-unenveloped", "Issuance, registration, customer listing and gift purchase answer without Envelope A: the card, customer, customer array or order at top level.",
		`"Card issuance request and response shape: not shown"; "Response body of registration: not shown"; "Response body of listing: not shown"; "the purchase response: not shown"`,
		"issuance:\n  cardPointer: \"\"\ncustomers:\n  customerIdPointer: /customerId\n  listPointer: \"\"\ngiftCards:\n  purchase:\n    orderPointer: \"\"\n    referencePointer: /reference\n    transactionIdPointer: /transactionId\n", true)

	// bodies
	vNullBodyNoop = declareVariant("body-null-optional-noop", "A JSON null body reads as an empty object, and a contact update supplying no field is a no-op 200.",
		`PATCH contact: "email (string, optional), mobile (string, optional) ... Only the supplied fields are updated"`, "", false)

	// authentication and webhooks
	vSkipReasonEmpty = declareVariant("webhook-skip-reason-empty", "A dispatched simulation answers skip_reason \"\" instead of null.",
		`"skip_reason (string or null)"; "dispatched is true when sent; otherwise skip_reason explains why"`, "", false)
	vRedeliver = declareVariant("webhook-redelivery", "Every webhook is delivered twice (at-least-once delivery).",
		`"Retry behaviour of deliveries: not shown"`, "", false)
	vMerchantHdrUnchecked = declareVariant("merchant-header-unchecked", "X-Merchant-Id is not checked anywhere.",
		`"Where X-Merchant-Id is sent: not shown"`,
		"auth:\n  merchantIdHeader: none\n", false)
	vWebhookPayloadShape = declareVariant("webhook-payload-shape", "Delivered events carry the kind in event and the data under payload.",
		`"Payload shape of delivered events: not shown"`,
		"webhooks:\n  deliveryKindPointer: /event\n  deliveryReferencePointer: /payload/reference\n", false)
)

// Variants returns the catalogue of document-allowed variants, sorted by name.
func Variants() []Variant {
	out := make([]Variant, len(variantRegistry))
	for i, d := range variantRegistry {
		out[i] = d.Variant
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func buildVariants(names []string) (variantSet, error) {
	var vs variantSet
	for _, n := range names {
		found := false
		for i, d := range variantRegistry {
			if d.Name == n {
				vs.set(variantID(i))
				for _, id := range d.also {
					vs.set(id)
				}
				vs.rewrite = vs.rewrite || d.rewrite
				found = true
				break
			}
		}
		if !found {
			return variantSet{}, fmt.Errorf("sandbox: unknown variant %q (see mph sandbox --list-variants)", n)
		}
	}
	return vs, nil
}

// listCardsVariant is listCardsOf under the listing variants: oldest first
// (list-oldest-first) and whole-value search (list-search-exact); the caller
// holds st's lock.
func (s *Server) listCardsVariant(st *envState, out []cardJSON, status, search string, limit int64) []cardJSON {
	n := len(st.cards)
	for k := 0; k < n && int64(len(out)) < limit; k++ {
		i := n - 1 - k
		if s.variants.on(vListOldestFirst) {
			i = k
		}
		c := st.cards[i]
		if (status == "ACTIVE" && c.frozen) || (status == "FROZEN" && !c.frozen) {
			continue
		}
		if search != "" && !s.searchMatches(c, search) {
			continue
		}
		out = append(out, c.json())
	}
	return out
}

func (s *Server) searchMatches(c *card, search string) bool {
	if s.variants.on(vListSearchExact) {
		return c.last4 == search || c.nameLower == search || c.refLower == search
	}
	return c.last4 == search || strings.Contains(c.nameLower, search) || strings.Contains(c.refLower, search)
}
