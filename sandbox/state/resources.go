package state

import (
	"fmt"
	"strings"
	"time"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// JSON shapes of the resources of the API document, and the renderings of
// the state in them.

// Address is a billing address; country is a 2-letter code.
type Address struct {
	Street     string `json:"street"`
	City       string `json:"city"`
	State      string `json:"state"`
	PostalCode string `json:"postalCode"`
	Country    string `json:"country"`
}

// CardJSON is a card as GET /cards/{id} shows it.
type CardJSON struct {
	ID             string       `json:"id"`
	CardType       string       `json:"cardType"`
	CardBrand      string       `json:"cardBrand"`
	MaskedPan      string       `json:"maskedPan"`
	NameOnCard     string       `json:"nameOnCard"`
	BalanceAmount  money.Amount `json:"balanceAmount"`
	Currency       string       `json:"currency"`
	Status         string       `json:"status"`
	CreatedStatus  string       `json:"createdStatus"`
	Reference      string       `json:"reference"`
	BillingAddress Address      `json:"billingAddress"`
	ColorTheme     string       `json:"colorTheme"`
	CreatedAt      string       `json:"createdAt"`
	UpdatedAt      string       `json:"updatedAt"`
}

// SecureJSON is a card's full credentials (GET /cards/{id}/secure).
type SecureJSON struct {
	CardID         string  `json:"cardId"`
	Reference      string  `json:"reference"`
	MaskedPan      string  `json:"maskedPan"`
	CardNumber     string  `json:"cardNumber"`
	Pan            string  `json:"pan"`
	CVV            string  `json:"cvv"`
	ExpiryMonth    string  `json:"expiryMonth"`
	ExpiryYear     string  `json:"expiryYear"`
	ExpirationDate string  `json:"expirationDate"`
	NameOnCard     string  `json:"nameOnCard"`
	BillingAddress Address `json:"billingAddress"`
}

// CustomerJSON is a customer record as registration answers it.
type CustomerJSON struct {
	CustomerID       string `json:"customerId"`
	FirstName        string `json:"firstName"`
	LastName         string `json:"lastName"`
	Email            string `json:"email"`
	PhoneNumber      string `json:"phoneNumber"`
	PhoneCountryCode string `json:"phoneCountryCode"`
	DateOfBirth      string `json:"dateOfBirth"`
	IDType           string `json:"idType"`
	IDNumberLast4    string `json:"idNumberLast4"`
	Address          string `json:"address"`
	City             string `json:"city"`
	State            string `json:"state"`
	PostalCode       string `json:"postalCode"`
	Country          string `json:"country"`
	KYCStatus        string `json:"kycStatus"`
	CreatedAt        string `json:"createdAt"`
}

// Voucher of a gift order; code and pin stay "" until the order is reconciled.
type Voucher struct {
	Code         string `json:"code"`
	PIN          string `json:"pin"`
	SerialNumber string `json:"serialNumber"`
	Instructions string `json:"instructions"`
}

// Recipient of a gift order.
type Recipient struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

// GiftOrderJSON is a gift order in the flat shape.
type GiftOrderJSON struct {
	Status        string       `json:"status"`
	Reference     string       `json:"reference"`
	TransactionID string       `json:"transactionId"`
	ProductCode   string       `json:"productCode"`
	ProductName   string       `json:"productName"`
	Currency      string       `json:"currency"`
	FaceValue     money.Amount `json:"faceValue"`
	CostNgn       money.Amount `json:"costNgn"`
	Voucher       Voucher      `json:"voucher"`
	Recipient     Recipient    `json:"recipient"`
	OrderStatus   string       `json:"orderStatus"`
	IsSuccessful  bool         `json:"isSuccessful"`
	Environment   string       `json:"environment"`
	CreatedAt     string       `json:"createdAt"`
}

// NewCard builds a card with a fresh Luhn-valid PAN, CVV and expiry.
func NewCard(now time.Time, brand, name, theme string, billing Address) *Card {
	prefix := "4"
	if brand == "MASTERCARD" {
		prefix = "5" + ids.DigitIn("12345")
	}
	body := prefix + ids.Digits(15-len(prefix))
	pan := body + string(rune('0'+LuhnCheck(body)))
	exp := now.UTC()
	id := "crd_" + ids.Hex(12)
	ref := "card_" + ids.Hex(8)
	at := wording.Timestamp(now)
	return &Card{
		ID: id, Ref: ref, RefLower: ref,
		Brand:      brand,
		PAN:        pan,
		PANGrouped: pan[0:4] + " " + pan[4:8] + " " + pan[8:12] + " " + pan[12:16],
		MaskedPAN:  pan[:6] + "******" + pan[12:],
		Last4:      pan[12:],
		CVV:        ids.Digits(3),
		ExpMonth:   fmt.Sprintf("%02d", int(exp.Month())),
		ExpYear:    fmt.Sprintf("%04d", exp.Year()+3),
		NameOnCard: name,
		NameLower:  strings.ToLower(name),
		Billing:    billing,
		ColorTheme: theme,
		CreatedAt:  at,
		UpdatedAt:  at,
	}
}

// LuhnCheck returns the check digit making body+digit Luhn-valid.
func LuhnCheck(body string) int {
	sum := 0
	double := true // the rightmost body digit is doubled once the check digit is appended
	for i := len(body) - 1; i >= 0; i-- {
		d := int(body[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return (10 - sum%10) % 10
}

// Status is ACTIVE or FROZEN.
func (c *Card) Status() string {
	if c.Frozen {
		return "FROZEN"
	}
	return "ACTIVE"
}

// JSON renders the card; the caller holds the state lock.
func (c *Card) JSON() CardJSON {
	return CardJSON{
		ID:             c.ID,
		CardType:       "VIRTUAL",
		CardBrand:      c.Brand,
		MaskedPan:      c.MaskedPAN,
		NameOnCard:     c.NameOnCard,
		BalanceAmount:  money.Amount(c.Balance),
		Currency:       "USD",
		Status:         c.Status(),
		CreatedStatus:  "COMPLETED",
		Reference:      c.Ref,
		BillingAddress: c.Billing,
		ColorTheme:     c.ColorTheme,
		CreatedAt:      c.CreatedAt,
		UpdatedAt:      c.UpdatedAt,
	}
}

// SecureDetails are c's full credentials; the caller holds the state lock.
func SecureDetails(c *Card) SecureJSON {
	return SecureJSON{
		CardID:         c.ID,
		Reference:      c.Ref,
		MaskedPan:      c.MaskedPAN,
		CardNumber:     c.PANGrouped,
		Pan:            c.PANGrouped,
		CVV:            c.CVV,
		ExpiryMonth:    c.ExpMonth,
		ExpiryYear:     c.ExpYear,
		ExpirationDate: c.ExpMonth + "/" + c.ExpYear[2:],
		NameOnCard:     c.NameOnCard,
		BillingAddress: c.Billing,
	}
}

// JSON renders the order in the flat shape; the caller holds the state lock.
func (o *GiftOrder) JSON() GiftOrderJSON {
	j := GiftOrderJSON{
		Status:        "success",
		Reference:     o.Reference,
		TransactionID: o.TransactionID,
		ProductCode:   o.ProductCode,
		ProductName:   o.ProductName,
		Currency:      o.Currency,
		FaceValue:     money.Amount(o.FaceValue),
		CostNgn:       money.Amount(o.CostNGN),
		Voucher:       o.Voucher,
		Recipient:     o.Recipient,
		OrderStatus:   o.Status,
		IsSuccessful:  o.Status == "SUCCESS",
		Environment:   o.Env.String(),
		CreatedAt:     o.CreatedAt,
	}
	if !j.IsSuccessful {
		j.Voucher.Code, j.Voucher.PIN = "", "" // locked until reconciled
	}
	return j
}

// BalancesJSON are a merchant environment's balances (a test control's answer).
type BalancesJSON struct {
	MerchantID    string       `json:"merchantId"`
	Environment   string       `json:"environment"`
	VaultBalance  money.Amount `json:"vaultBalance"`
	NgnBalance    money.Amount `json:"ngnBalance"`
	FeesCollected money.Amount `json:"feesCollected"`
	CardBalances  money.Amount `json:"cardBalances"`
	SpentAmount   money.Amount `json:"spentAmount"`
	Cards         int          `json:"cards"`
}

// Balances reads st's balances under its lock.
func (st *EnvState) Balances() BalancesJSON {
	st.Mu.RLock()
	defer st.Mu.RUnlock()
	var sum int64
	for _, c := range st.Cards {
		sum += c.Balance
	}
	return BalancesJSON{
		MerchantID: st.Merchant.ID, Environment: st.Env.String(),
		VaultBalance: money.Amount(st.Vault), NgnBalance: money.Amount(st.NGN),
		FeesCollected: money.Amount(st.Fees), CardBalances: money.Amount(sum),
		SpentAmount: money.Amount(st.Spent), Cards: len(st.Cards),
	}
}

// Fees and rates of docs/sandbox.md, per merchant and environment.
const (
	CreationFee   = 1_00
	FundFee       = 1_00
	WithdrawalFee = 5
	MinFunding    = 1_00
	MinWithdrawal = 10
	ExchangeRate  = 1550_00 // NGN per USD, in kobo per dollar
	GiftFeeNGN    = 250_00
)
