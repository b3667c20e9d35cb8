package sandbox

import "github.com/merchant-harness/mph/money"

// JSON shapes of the resources of the API document.

// Address is a billing address; country is a 2-letter code.
type Address struct {
	Street     string `json:"street"`
	City       string `json:"city"`
	State      string `json:"state"`
	PostalCode string `json:"postalCode"`
	Country    string `json:"country"`
}

var defaultBilling = Address{Street: "1 Sandbox Way", City: "San Francisco", State: "CA", PostalCode: "94105", Country: "US"}

type cardJSON struct {
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

type secureJSON struct {
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

type configJSON struct {
	Environment   string       `json:"environment"`
	CreationFee   money.Amount `json:"creationFee"`
	FundFee       money.Amount `json:"fundFee"`
	WithdrawalFee money.Amount `json:"withdrawalFee"`
	MinFunding    money.Amount `json:"minFunding"`
	ExchangeRate  money.Amount `json:"exchangeRate"`
	VaultBalance  money.Amount `json:"vaultBalance"`
}

type customerJSON struct {
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

type giftOrderJSON struct {
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

// Fees and rates of docs/sandbox.md, per merchant and environment.
const (
	creationFee   = 1_00
	fundFee       = 1_00
	withdrawalFee = 5
	minFunding    = 1_00
	minWithdrawal = 10
	exchangeRate  = 1550_00 // NGN per USD, in kobo per dollar
	giftFeeNGN    = 250_00
)
