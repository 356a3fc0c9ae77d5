package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Names accepted by the DEFECT environment variable.
const (
	DefectAmountPlusOne     = "amount-plus-one"
	DefectNoAuth            = "no-auth"
	DefectDelete500         = "delete-500"
	DefectDropCallbackQuery = "drop-callback-query"
)

const maxBodyBytes = 1 << 20

// API is the HTTP handler for the /v1 interface.
type API struct {
	store  *Store
	defect string
}

// NewAPI returns the root handler.
func NewAPI(store *Store, defect string) http.Handler {
	return &API{store: store, defect: defect}
}

type ctxKey struct{}

func accountFrom(r *http.Request) int64 { return r.Context().Value(ctxKey{}).(int64) }

// errorBody is the JSON body of every error response.
type errorBody struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, "method not allowed")
}

// authenticate resolves the bearer secret key to an account id.
func (a *API) authenticate(r *http.Request) (int64, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		if a.defect == DefectNoAuth {
			return 1, true
		}
		return 0, false
	}
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return 0, false
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return 0, false
	}
	return a.store.AccountForKey(key)
}

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path != "/v1" && !strings.HasPrefix(path, "/v1/") {
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	parts := strings.Split(strings.Trim(strings.TrimPrefix(path, "/v1"), "/"), "/")

	// Resolve the route first so that unknown paths are 404 regardless
	// of authentication.
	var handler func(http.ResponseWriter, *http.Request, []string)
	var allow string
	if len(parts) == 2 && parts[0] == "pay" {
		// Customer-facing payment page behind the payment link; no API key.
		if r.Method != http.MethodGet {
			methodNotAllowed(w, http.MethodGet)
			return
		}
		a.paymentPage(w, r, parts)
		return
	}
	switch {
	case len(parts) == 2 && parts[0] == "customers":
		handler, allow = a.deleteCustomer, http.MethodDelete
	case len(parts) == 1 && parts[0] == "transactions":
		handler, allow = a.createTransaction, http.MethodPost
	case len(parts) == 3 && parts[0] == "transactions" && parts[2] == "token":
		handler, allow = a.transactionToken, http.MethodPost
	case len(parts) == 2 && parts[0] == "transactions":
		handler, allow = a.sendTransaction, http.MethodPost
	case len(parts) == 2 && parts[0] == "balances":
		handler, allow = a.getBalance, http.MethodGet
	case len(parts) == 2 && parts[0] == "currencies":
		handler, allow = a.getCurrency, http.MethodGet
	default:
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	if r.Method != allow {
		methodNotAllowed(w, allow)
		return
	}

	account, ok := a.authenticate(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="api"`)
		writeError(w, http.StatusUnauthorized, "no valid secret key provided")
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, account))
	handler(w, r, parts)
}

// parseID parses a positive integer path parameter.
func parseID(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// decodeJSON decodes a JSON object body into v, writing a 400 on failure.
func decodeJSON(w http.ResponseWriter, r *http.Request, v interface{}) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body too large")
		} else {
			writeError(w, http.StatusBadRequest, "could not read request body")
		}
		return false
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		writeError(w, http.StatusBadRequest, "request body must be a JSON object")
		return false
	}
	if body[0] != '{' {
		writeError(w, http.StatusBadRequest, "request body must be a JSON object")
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && ute.Field != "" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("invalid value for field %q: expected %s", ute.Field, ute.Type.String()))
		} else {
			writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		}
		return false
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "invalid JSON body: unexpected data after the object")
		return false
	}
	return true
}

// flexString accepts a JSON string or a JSON number and keeps its text.
type flexString struct {
	Value string
	Set   bool
}

func (f *flexString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		f.Value, f.Set = s, true
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("must be a string or a number")
	}
	f.Value, f.Set = n.String(), true
	return nil
}

type phoneInput struct {
	Number  flexString `json:"number"`
	Country *string    `json:"country"`
}

var (
	phoneRe   = regexp.MustCompile(`^\+?[0-9]{6,15}$`)
	countryRe = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

// validate normalizes the phone number, returning an error message.
func (p *phoneInput) validate(field string) (*PhoneNumber, string) {
	if !p.Number.Set || strings.TrimSpace(p.Number.Value) == "" {
		return nil, field + ".number is required"
	}
	num := strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(p.Number.Value))
	if !phoneRe.MatchString(num) {
		return nil, field + ".number must be a phone number in international format"
	}
	if p.Country == nil || !countryRe.MatchString(*p.Country) {
		return nil, field + ".country must be a two-letter country code"
	}
	return &PhoneNumber{Number: num, Country: strings.ToUpper(*p.Country)}, ""
}

// ---------------------------------------------------------------------
// 1. DELETE /customers/{id}

func (a *API) deleteCustomer(w http.ResponseWriter, r *http.Request, parts []string) {
	account := accountFrom(r)
	notFound := func() {
		if a.defect == DefectDelete500 {
			writeError(w, http.StatusInternalServerError, "internal server error")
			return
		}
		writeError(w, http.StatusNotFound, "customer not found")
	}
	id, ok := parseID(parts[1])
	if !ok {
		notFound()
		return
	}
	s := a.store
	s.mu.Lock()
	c, ok := s.customers[id]
	if ok && c.AccountID == account {
		delete(s.customers, id)
	}
	s.mu.Unlock()
	if !ok || c.AccountID != account {
		notFound()
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// ---------------------------------------------------------------------
// 2. POST /transactions

type createTransactionRequest struct {
	Description *string `json:"description"`
	Amount      *int64  `json:"amount"`
	Currency    *struct {
		ISO *string `json:"iso"`
		ID  *int64  `json:"id"`
	} `json:"currency"`
	CallbackURL    *string                `json:"callback_url"`
	CustomMetadata map[string]interface{} `json:"custom_metadata"`
	Customer       *struct {
		ID          *int64      `json:"id"`
		Email       *string     `json:"email"`
		Firstname   *string     `json:"firstname"`
		Lastname    *string     `json:"lastname"`
		PhoneNumber *phoneInput `json:"phone_number"`
	} `json:"customer"`
	Mode *string `json:"mode"`
}

func (a *API) createTransaction(w http.ResponseWriter, r *http.Request, _ []string) {
	account := accountFrom(r)
	var req createTransactionRequest
	if !decodeJSON(w, r, &req) {
		return
	}

	// Field validation that needs no stored state.
	if req.Amount == nil {
		writeError(w, http.StatusBadRequest, "amount is required")
		return
	}
	if *req.Amount <= 0 {
		writeError(w, http.StatusBadRequest, "amount must be a positive integer")
		return
	}
	if req.Currency == nil || ((req.Currency.ISO == nil || *req.Currency.ISO == "") && req.Currency.ID == nil) {
		writeError(w, http.StatusBadRequest, "currency.iso is required")
		return
	}
	var callback *string
	if req.CallbackURL != nil && *req.CallbackURL != "" {
		u, err := url.Parse(*req.CallbackURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			writeError(w, http.StatusBadRequest, "callback_url must be an absolute http or https URL")
			return
		}
		cb := *req.CallbackURL
		if a.defect == DefectDropCallbackQuery {
			u.RawQuery, u.ForceQuery = "", false
			cb = u.String()
		}
		callback = &cb
	}
	var custPhone *PhoneNumber
	if c := req.Customer; c != nil {
		if c.Email != nil && *c.Email != "" {
			if addr, err := mail.ParseAddress(*c.Email); err != nil || addr.Address != *c.Email {
				writeError(w, http.StatusBadRequest, "customer.email must be a valid email address")
				return
			}
		}
		if c.PhoneNumber != nil {
			p, msg := c.PhoneNumber.validate("customer.phone_number")
			if msg != "" {
				writeError(w, http.StatusBadRequest, msg)
				return
			}
			custPhone = p
		}
	}

	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()

	var cur *Currency
	if req.Currency.ISO != nil && *req.Currency.ISO != "" {
		cur = s.currencyByISOLocked(account, *req.Currency.ISO)
	} else if c, ok := s.currencies[*req.Currency.ID]; ok && c.AccountID == account {
		cur = c
	}
	if cur == nil {
		writeError(w, http.StatusBadRequest, "currency is not supported for this account")
		return
	}
	if req.Mode != nil && *req.Mode != "" && !cur.HasMode(*req.Mode) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("mode %q is not available for currency %s", *req.Mode, cur.ISO))
		return
	}

	now := time.Now().UTC()
	var customerID *int64
	if c := req.Customer; c != nil {
		var cust *Customer
		switch {
		case c.ID != nil:
			existing, ok := s.customers[*c.ID]
			if !ok || existing.AccountID != account {
				writeError(w, http.StatusNotFound, "customer not found")
				return
			}
			cust = existing
		case c.Email != nil && *c.Email != "":
			cust = s.customerByEmailLocked(account, *c.Email)
		}
		if cust == nil {
			cust = &Customer{ID: s.nextCustomerID, AccountID: account, CreatedAt: now}
			s.nextCustomerID++
			s.customers[cust.ID] = cust
		}
		// Fields sent alongside update the customer record.
		if c.Email != nil && *c.Email != "" {
			cust.Email = strPtr(*c.Email)
		}
		if c.Firstname != nil {
			cust.Firstname = strPtr(*c.Firstname)
		}
		if c.Lastname != nil {
			cust.Lastname = strPtr(*c.Lastname)
		}
		if custPhone != nil {
			cust.PhoneNumber = custPhone
		}
		cust.UpdatedAt = now
		id := cust.ID
		customerID = &id
	}

	amount := *req.Amount
	if a.defect == DefectAmountPlusOne {
		amount++
	}
	var mode *string
	if req.Mode != nil && *req.Mode != "" {
		mode = strPtr(*req.Mode)
	}
	tx := &Transaction{
		ID:             s.nextTransactionID,
		Reference:      newReference("trx"),
		Amount:         amount,
		Description:    req.Description,
		CallbackURL:    callback,
		Status:         TxPending,
		Mode:           mode,
		CurrencyID:     cur.ID,
		CustomerID:     customerID,
		AccountID:      account,
		CustomMetadata: req.CustomMetadata,
		CreatedAt:      now,
		UpdatedAt:      now,
	}
	if tx.CustomMetadata == nil {
		tx.CustomMetadata = map[string]interface{}{}
	}
	s.nextTransactionID++
	s.transactions[tx.ID] = tx
	writeJSON(w, http.StatusCreated, tx)
}

// ---------------------------------------------------------------------
// 3. POST /transactions/{id}/token

func (a *API) transactionToken(w http.ResponseWriter, r *http.Request, parts []string) {
	account := accountFrom(r)
	id, ok := parseID(parts[1])
	if !ok {
		writeError(w, http.StatusNotFound, "transaction not found")
		return
	}
	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, ok := s.transactions[id]
	if !ok || tx.AccountID != account {
		writeError(w, http.StatusNotFound, "transaction not found")
		return
	}
	if tx.Status != TxPending {
		writeError(w, http.StatusConflict, fmt.Sprintf("transaction is %s; a payment link can only be obtained for a pending transaction", tx.Status))
		return
	}
	if tx.token == "" {
		tx.token = randomHex(20)
		s.tokens[tx.token] = tx
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	link := PaymentLink{
		Token: tx.token,
		URL:   fmt.Sprintf("%s://%s/v1/pay/%s", scheme, r.Host, url.PathEscape(tx.token)),
	}
	writeJSON(w, http.StatusOK, link)
}

// ---------------------------------------------------------------------
// 4. POST /transactions/{mode}

type sendTransactionRequest struct {
	Token       flexString  `json:"token"`
	PhoneNumber *phoneInput `json:"phone_number"`
}

func (a *API) sendTransaction(w http.ResponseWriter, r *http.Request, parts []string) {
	account := accountFrom(r)
	mode := parts[1]
	var req sendTransactionRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	if !req.Token.Set || req.Token.Value == "" {
		writeError(w, http.StatusBadRequest, "token is required")
		return
	}
	var phone *PhoneNumber
	if req.PhoneNumber != nil {
		p, msg := req.PhoneNumber.validate("phone_number")
		if msg != "" {
			writeError(w, http.StatusBadRequest, msg)
			return
		}
		phone = p
	}

	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, ok := s.tokens[req.Token.Value]
	if !ok || tx.AccountID != account {
		writeError(w, http.StatusNotFound, "transaction not found for this token")
		return
	}
	cur := s.currencies[tx.CurrencyID]
	if cur == nil || !cur.HasMode(mode) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("mode %q is not available for this transaction", mode))
		return
	}
	if tx.Status != TxPending {
		writeError(w, http.StatusConflict, fmt.Sprintf("transaction is already %s", tx.Status))
		return
	}

	// The sandbox settles immediately: the intent is sent and the
	// transaction approved; the amount is credited to the balance.
	now := time.Now().UTC()
	var pmID *int64
	if phone != nil {
		id := s.nextPaymentMethodID
		s.nextPaymentMethodID++
		pmID = &id
	}
	approved := now
	intent := &PaymentIntent{
		Reference:       newReference("pi"),
		Amount:          tx.Amount,
		Status:          IntentSent,
		CurrencyID:      tx.CurrencyID,
		Mode:            mode,
		LastErrorCode:   nil,
		CreatedAt:       now,
		UpdatedAt:       now,
		ApprovedAt:      &approved,
		PaymentMethodID: pmID,
		TransactionKey:  randomHex(16),
		AccountID:       account,
	}
	s.intents[tx.ID] = append(s.intents[tx.ID], intent)
	tx.Status = TxApproved
	tx.Mode = strPtr(mode)
	tx.UpdatedAt = now
	if b, ok := s.balances[account]; ok {
		b.Amount += tx.Amount
		b.UpdatedAt = now
	}
	writeJSON(w, http.StatusOK, []*PaymentIntent{intent})
}

// ---------------------------------------------------------------------
// 5. GET /balances/{id}

func (a *API) getBalance(w http.ResponseWriter, r *http.Request, parts []string) {
	account := accountFrom(r)
	id, ok := parseID(parts[1])
	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()
	var b *Balance
	if ok {
		b = s.balances[id]
	}
	if b == nil || b.AccountID != account {
		writeError(w, http.StatusNotFound, "balance not found")
		return
	}
	copy := *b
	writeJSON(w, http.StatusOK, []Balance{copy})
}

// ---------------------------------------------------------------------
// 6. GET /currencies/{id}

func (a *API) getCurrency(w http.ResponseWriter, r *http.Request, parts []string) {
	account := accountFrom(r)
	id, ok := parseID(parts[1])
	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()
	var c *Currency
	if ok {
		c = s.currencies[id]
	}
	if c == nil || c.AccountID != account {
		writeError(w, http.StatusNotFound, "currency not found")
		return
	}
	copy := *c
	writeJSON(w, http.StatusOK, []Currency{copy})
}

// ---------------------------------------------------------------------
// GET /pay/{token}: the page a payment link points to (not part of the
// reference; present so that links returned by the sandbox resolve).

func (a *API) paymentPage(w http.ResponseWriter, r *http.Request, parts []string) {
	s := a.store
	s.mu.Lock()
	tx, ok := s.tokens[parts[1]]
	var amount int64
	var status, iso string
	if ok {
		amount, status = tx.Amount, tx.Status
		if c := s.currencies[tx.CurrencyID]; c != nil {
			iso = c.ISO
		}
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "payment link not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "Sandbox payment page\nAmount: %d %s\nStatus: %s\n", amount, iso, status)
}
