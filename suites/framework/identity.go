package framework

// Test data no plausible business rule refuses. The document leaves the
// rules of registration and issuance open ("other failure conditions: not
// shown"; names and required flags of the additional registration fields:
// not shown), so every customer gets an identity of its own (name, date of
// birth, identity document number, phone, e-mail: a uniqueness or duplicate
// check never trips), consistent in itself (a US address, a +1 phone in a
// California area code, a 3-letter country), valid-looking to common
// validators (a 10-digit NANP number in the 555-01XX range reserved for
// fiction, a 9-digit document number, an adult's date of birth), and cards
// get letters-only names within the profile's testData.nameMaxLength.

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
)

// Identity is the registration data of one customer.
type Identity struct {
	FirstName, LastName string
	Email               string
	Phone               string // national number, 10 digits
	PhoneCountryCode    string // "+1"
	DateOfBirth         string // YYYY-MM-DD
	IDType, IDNumber    string
	Street, City, State string
	PostalCode, Country string
}

// FullName is "FirstName LastName".
func (i Identity) FullName() string { return i.FirstName + " " + i.LastName }

var (
	uniqueMu   sync.Mutex
	uniqueBase uint64 // random per process: runs never start at the same index
	uniqueSeq  uint64
)

// nextUnique returns an index no earlier call of this run returned: a
// random start per run (the same in every process of it, from the run id),
// its Ginkgo process number, then a sequence.
func nextUnique() uint64 {
	base, proc, seq := uniqueParts()
	return base + proc<<32 + seq
}

// uniqueParts returns the run's random start, this process's number and the
// next value of its sequence.
func uniqueParts() (base, proc, seq uint64) {
	uniqueMu.Lock()
	defer uniqueMu.Unlock()
	if uniqueBase == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		uniqueBase = binary.BigEndian.Uint64(b[:])>>2 | 1
		if h.cfg != nil && h.cfg.RunID != "" {
			uniqueBase = mix(uint64(len(h.cfg.RunID))^fnv64(h.cfg.RunID))>>2 | 1
		}
	}
	uniqueSeq++
	return uniqueBase, uint64(GinkgoParallelProcess()), uniqueSeq
}

// fnv64 is the FNV-1a hash of s.
func fnv64(s string) uint64 {
	x := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= 1099511628211
	}
	return x
}

// Letters-only names: a first name from a list and a pronounceable token of
// seven letters (consonant, vowel, ...) unique within a run.
var (
	firstNames = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Katherine", "Linus", "Radia",
		"Margaret", "Dennis", "Hedy", "Claude", "Joan", "Niklaus", "Sophie", "Tim", "Evelyn", "John"}
	consonants = "bcdfghjklmnprstvwxz"
	vowels     = "aeiou"
)

// tokenSpace is the number of distinct tokens; tokenMul (coprime with it)
// spreads consecutive indices over it, so tokens of one run differ early.
var (
	tokenSpace = uint64(len(consonants)*len(consonants)*len(consonants)*len(consonants)) * uint64(len(vowels)*len(vowels)*len(vowels))
	tokenMul   = uint64(1_000_003)
)

// nameToken renders an index as a capitalised seven-letter token.
func nameToken(i uint64) string {
	n := (i % tokenSpace) * tokenMul % tokenSpace
	var b strings.Builder
	for pos := 0; pos < 7; pos++ {
		set := consonants
		if pos%2 == 1 {
			set = vowels
		}
		b.WriteByte(set[n%uint64(len(set))])
		n /= uint64(len(set))
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// UniqueName returns a letters-only first and last name no other call of
// this run returns, "First Last" within the profile's testData.nameMaxLength
// (the first name is shortened when needed): a nameOnCard an embossing rule
// accepts and a search finds alone.
func UniqueName() (first, last string) {
	return uniqueNameWithin(nextUnique(), Profile().TestData.NameMaxLength)
}

func uniqueNameWithin(i uint64, maxLen int) (first, last string) {
	first, last = firstNames[i%uint64(len(firstNames))], nameToken(i)
	if room := maxLen - len(last) - 1; len(first) > room {
		first = first[:max(1, room)]
	}
	return first, last
}

// CardName returns a unique letters-only nameOnCard ("Ada Kelomir").
func CardName() string {
	f, l := UniqueName()
	return f + " " + l
}

// californiaAreaCodes are area codes in service in California: a +1 number
// there with the exchange 555 and a line 0100-0199 is reserved for fiction.
var californiaAreaCodes = []string{"209", "213", "279", "310", "323", "341", "350", "408", "415", "424", "442", "510", "530",
	"559", "562", "619", "626", "628", "650", "657", "661", "669", "707", "714", "747", "760", "805", "818", "820", "831",
	"840", "858", "909", "916", "925", "949", "951"}

// fictionalPhones is how many numbers fictionalPhone gives.
var fictionalPhones = uint64(len(californiaAreaCodes) * 100)

// fictionalPhone is the i-th (modulo fictionalPhones) 10-digit number
// NXX-555-01XX of a California area code.
func fictionalPhone(i uint64) string {
	i %= fictionalPhones
	return fmt.Sprintf("%s55501%02d", californiaAreaCodes[i/100], i%100)
}

// NewIdentity returns a registration identity no other call of this run
// returns (name, date of birth, document number, phone, e-mail).
func NewIdentity() Identity {
	base, proc, seq := uniqueParts()
	i := base + proc<<32 + seq
	first, last := uniqueNameWithin(i, 40)
	r := mix(i)
	// Phones: each process owns a stride of the 3,700 numbers, so numbers
	// stay unique across up to 8 processes of 462 customers each.
	p := base + (proc-1)*(fictionalPhones/8) + seq
	dob := time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(r%(35*365)))
	return Identity{
		FirstName: first, LastName: last,
		Email:            strings.ToLower(Ref("cus")) + "@" + Profile().TestData.EmailDomain,
		Phone:            fictionalPhone(p),
		PhoneCountryCode: "+1",
		DateOfBirth:      dob.Format("2006-01-02"),
		IDType:           "passport",
		IDNumber:         fmt.Sprintf("%09d", 100_000_000+(r>>8)%900_000_000),
		Street:           fmt.Sprintf("%d Market Street", 1+r%2000),
		City:             "San Francisco", State: "CA", PostalCode: "94105", Country: "USA",
	}
}

// mix scrambles an index (splitmix64) so that derived values look random.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// RegistrationBody returns the registration body of an identity: the four
// documented fields and the profile's names for the others.
func RegistrationBody(id Identity) JSON {
	body := JSON{"firstName": id.FirstName, "lastName": id.LastName, "email": id.Email, "phoneNumber": id.Phone}
	values := map[string]any{
		"phoneCountryCode": id.PhoneCountryCode, "dateOfBirth": id.DateOfBirth, "idType": id.IDType, "idNumber": id.IDNumber,
		"street": id.Street, "city": id.City, "state": id.State, "postalCode": id.PostalCode, "country": id.Country,
	}
	for logical, wire := range Profile().Customers.Fields {
		if v, ok := values[logical]; ok && wire != "" {
			body[wire] = v
		}
	}
	return body
}
