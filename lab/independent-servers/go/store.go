package main

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"
)

// Transaction statuses.
const (
	TxPending  = "pending"
	TxApproved = "approved"
	TxCanceled = "canceled"
)

// Payment-intent statuses.
const (
	IntentPending   = "pending"
	IntentScheduled = "scheduled"
	IntentSent      = "sent"
	IntentFailed    = "failed"
)

// PhoneNumber is the phone-number object used by customers and sends.
type PhoneNumber struct {
	Number  string `json:"number"`
	Country string `json:"country"`
}

// Customer is a customer record owned by one account.
type Customer struct {
	ID          int64        `json:"id"`
	Email       *string      `json:"email"`
	Firstname   *string      `json:"firstname"`
	Lastname    *string      `json:"lastname"`
	PhoneNumber *PhoneNumber `json:"phone_number"`
	AccountID   int64        `json:"account_id"`
	CreatedAt   time.Time    `json:"created_at"`
	UpdatedAt   time.Time    `json:"updated_at"`
}

// Transaction is the resource returned by transaction creation.
type Transaction struct {
	ID             int64                  `json:"id"`
	Reference      string                 `json:"reference"`
	Amount         int64                  `json:"amount"`
	Description    *string                `json:"description"`
	CallbackURL    *string                `json:"callback_url"`
	Status         string                 `json:"status"`
	Mode           *string                `json:"mode"`
	CurrencyID     int64                  `json:"currency_id"`
	CustomerID     *int64                 `json:"customer_id"`
	AccountID      int64                  `json:"account_id"`
	CustomMetadata map[string]interface{} `json:"custom_metadata"`
	CreatedAt      time.Time              `json:"created_at"`
	UpdatedAt      time.Time              `json:"updated_at"`

	token string
}

// PaymentIntent is returned (inside an array) by the send operation.
type PaymentIntent struct {
	Reference       string     `json:"reference"`
	Amount          int64      `json:"amount"`
	Status          string     `json:"status"`
	CurrencyID      int64      `json:"currency_id"`
	Mode            string     `json:"mode"`
	LastErrorCode   *string    `json:"last_error_code"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
	ApprovedAt      *time.Time `json:"approved_at"`
	CanceledAt      *time.Time `json:"canceled_at"`
	DeletedAt       *time.Time `json:"deleted_at"`
	PaymentMethodID *int64     `json:"payment_method_id"`
	TransactionKey  string     `json:"transaction_key"`
	AccountID       int64      `json:"account_id"`
}

// PaymentLink is returned by the token operation.
type PaymentLink struct {
	Token string `json:"token"`
	URL   string `json:"url"`
}

// Balance is an account balance.
type Balance struct {
	ID        int64     `json:"id"`
	Amount    int64     `json:"amount"`
	Mode      string    `json:"mode"`
	AccountID int64     `json:"account_id"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Currency is a currency enabled for an account.
type Currency struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	ISO       string    `json:"iso"`
	Modes     []string  `json:"modes"`
	Prefix    *string   `json:"prefix"`
	Suffix    *string   `json:"suffix"`
	AccountID int64     `json:"account_id"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Default   bool      `json:"default"`
}

// HasMode reports whether mode is enabled for the currency.
func (c *Currency) HasMode(mode string) bool {
	for _, m := range c.Modes {
		if m == mode {
			return true
		}
	}
	return false
}

// Store holds every resource in memory. All access goes through mu.
type Store struct {
	mu sync.Mutex

	keys         map[string]int64 // secret key -> account id
	customers    map[int64]*Customer
	transactions map[int64]*Transaction
	tokens       map[string]*Transaction
	intents      map[int64][]*PaymentIntent // by transaction id
	balances     map[int64]*Balance
	currencies   map[int64]*Currency

	nextCustomerID      int64
	nextTransactionID   int64
	nextPaymentMethodID int64
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{
		keys:                make(map[string]int64),
		customers:           make(map[int64]*Customer),
		transactions:        make(map[int64]*Transaction),
		tokens:              make(map[string]*Transaction),
		intents:             make(map[int64][]*PaymentIntent),
		balances:            make(map[int64]*Balance),
		currencies:          make(map[int64]*Currency),
		nextCustomerID:      1,
		nextTransactionID:   1,
		nextPaymentMethodID: 1,
	}
}

func strPtr(s string) *string { return &s }

// AddAccount registers an account with its secret key and seeds its
// balance and XOF currency; both take the account's id as their id.
func (s *Store) AddAccount(id int64, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now().UTC()
	s.keys[key] = id
	s.balances[id] = &Balance{ID: id, Amount: 0, Mode: "sandbox", AccountID: id, CreatedAt: now, UpdatedAt: now}
	s.currencies[id] = &Currency{
		ID: id, Name: "XOF", ISO: "XOF", Modes: []string{"mtn", "moov"},
		Prefix: nil, Suffix: strPtr("FCFA"), AccountID: id,
		CreatedAt: now, UpdatedAt: now, Default: true,
	}
}

// AccountForKey returns the account id owning key.
func (s *Store) AccountForKey(key string) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.keys[key]
	return id, ok
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// newReference returns a reference such as "trx_3f9a...".
func newReference(prefix string) string {
	return prefix + "_" + randomHex(8)
}

// currencyForAccountLocked finds an account's currency by ISO code.
func (s *Store) currencyByISOLocked(account int64, iso string) *Currency {
	for _, c := range s.currencies {
		if c.AccountID == account && strings.EqualFold(c.ISO, iso) {
			return c
		}
	}
	return nil
}

func (s *Store) customerByEmailLocked(account int64, email string) *Customer {
	for _, c := range s.customers {
		if c.AccountID == account && c.Email != nil && strings.EqualFold(*c.Email, email) {
			return c
		}
	}
	return nil
}
