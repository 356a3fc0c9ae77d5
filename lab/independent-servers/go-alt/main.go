// Independent sandbox implementation of the Payment Collection Service API
// (see /work/shared/api-reference.md). Go standard library only.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ---------------------------------------------------------------------------
// Configuration

var defect = os.Getenv("DEFECT")

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// ---------------------------------------------------------------------------
// Resources (response shapes)

type PhoneNumber struct {
	Number  string
	Country string
}

type Customer struct {
	ID        int64
	AccountID int64
	Email     string
	Firstname string
	Lastname  string
	Phone     *PhoneNumber
}

type Transaction struct {
	ID             int64                  `json:"id"`
	Reference      string                 `json:"reference"`
	Amount         int64                  `json:"amount"`
	Description    string                 `json:"description,omitempty"`
	CallbackURL    string                 `json:"callback_url,omitempty"`
	Status         string                 `json:"status"`
	CreatedAt      string                 `json:"created_at"`
	UpdatedAt      string                 `json:"updated_at"`
	accountID      int64                  // internal
	currencyID     int64                  // internal
	mode           string                 // internal: mode given at creation, if any
	customerID     int64                  // internal: 0 when none
	customMetadata map[string]interface{} // internal
	token          string                 // internal: payment-link token once issued
}

type PaymentIntent struct {
	Reference       string `json:"reference"`
	Amount          int64  `json:"amount"`
	Status          string `json:"status"`
	CurrencyID      int64  `json:"currency_id"`
	Mode            string `json:"mode"`
	LastErrorCode   string `json:"last_error_code,omitempty"`
	CreatedAt       string `json:"created_at"`
	UpdatedAt       string `json:"updated_at"`
	ApprovedAt      string `json:"approved_at,omitempty"`
	CanceledAt      string `json:"canceled_at,omitempty"`
	DeletedAt       string `json:"deleted_at,omitempty"`
	PaymentMethodID int64  `json:"payment_method_id,omitempty"`
	TransactionKey  string `json:"transaction_key"`
	AccountID       int64  `json:"account_id"`
}

type PaymentLink struct {
	Token string `json:"token"`
	URL   string `json:"url"`
}

type Balance struct {
	ID        int64  `json:"id"`
	Amount    int64  `json:"amount"`
	Mode      string `json:"mode"`
	AccountID int64  `json:"account_id"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

type Currency struct {
	ID        int64    `json:"id"`
	Name      string   `json:"name"`
	Modes     []string `json:"modes"`
	Prefix    string   `json:"prefix,omitempty"`
	Suffix    string   `json:"suffix,omitempty"`
	AccountID int64    `json:"account_id"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
	Default   bool     `json:"default"`
}

// ---------------------------------------------------------------------------
// Store

type pmKey struct {
	account int64
	mode    string
	number  string
	country string
}

type Store struct {
	mu            sync.Mutex
	keys          map[string]int64 // secret key -> account id
	customers     map[int64]*Customer
	transactions  map[int64]*Transaction
	tokens        map[string]int64 // link token -> transaction id
	balances      map[int64]*Balance
	currencies    map[int64]*Currency
	paymentMethod map[pmKey]int64
	nextCustomer  int64
	nextTx        int64
	nextPM        int64
	tokenSecret   []byte
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

func newStore() *Store {
	t := now()
	s := &Store{
		keys: map[string]int64{
			envOr("SECRET_KEY", "sk_sandbox_independent_goalt_0001"):        1,
			envOr("SECOND_SECRET_KEY", "sk_sandbox_independent_goalt_0002"): 2,
		},
		customers:     map[int64]*Customer{},
		transactions:  map[int64]*Transaction{},
		tokens:        map[string]int64{},
		balances:      map[int64]*Balance{},
		currencies:    map[int64]*Currency{},
		paymentMethod: map[pmKey]int64{},
		nextCustomer:  1,
		nextTx:        1,
		nextPM:        1,
		tokenSecret:   randBytes(32),
	}
	for _, acct := range []int64{1, 2} {
		s.balances[acct] = &Balance{ID: acct, Amount: 0, Mode: "sandbox", AccountID: acct, CreatedAt: t, UpdatedAt: t}
		s.currencies[acct] = &Currency{ID: acct, Name: "XOF", Modes: []string{"mtn", "moov"}, Suffix: "F CFA",
			AccountID: acct, CreatedAt: t, UpdatedAt: t, Default: true}
	}
	return s
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}

func randHex(n int) string { return hex.EncodeToString(randBytes(n)) }

var b64 = base64.RawURLEncoding

// makeToken builds a JWT-looking opaque token: header.payload.signature.
func (s *Store) makeToken(txID int64) string {
	header := b64.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	payload, _ := json.Marshal(map[string]interface{}{
		"tid": txID,
		"jti": randHex(12),
		"iat": time.Now().Unix(),
	})
	signingInput := header + "." + b64.EncodeToString(payload)
	mac := hmac.New(sha256.New, s.tokenSecret)
	mac.Write([]byte(signingInput))
	return signingInput + "." + b64.EncodeToString(mac.Sum(nil))
}

// ---------------------------------------------------------------------------
// Errors and responses

type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errf(status int, format string, a ...interface{}) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, a...)}
}

func writeJSON(w http.ResponseWriter, status int, v interface{}) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	b := bytes.TrimRight(buf.Bytes(), "\n")
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"code":500,"message":"internal error","details":[]}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

func writeErr(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, struct {
		Code    int           `json:"code"`
		Message string        `json:"message"`
		Details []interface{} `json:"details"`
	}{e.status, e.msg, []interface{}{}})
}

// ---------------------------------------------------------------------------
// Request body decoding helpers

const maxBody = 1 << 20

func decodeObject(r *http.Request) (map[string]interface{}, *apiError) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, errf(400, "could not read request body")
	}
	if len(body) > maxBody {
		return nil, errf(400, "request body too large")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil, errf(400, "request body must be a JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, errf(400, "invalid JSON body: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errf(400, "invalid JSON body: unexpected data after the JSON value")
	}
	obj, ok := v.(map[string]interface{})
	if !ok {
		return nil, errf(400, "request body must be a JSON object")
	}
	return obj, nil
}

// field returns the value of key, treating an explicit null as absent.
func field(obj map[string]interface{}, key string) (interface{}, bool) {
	v, ok := obj[key]
	if !ok || v == nil {
		return nil, false
	}
	return v, true
}

// integral converts a json.Number holding an integral value (1500, 1500.0,
// 1.5e3) into an int64.
func integral(v interface{}) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(n.String())
	if !ok || !r.IsInt() {
		return 0, false
	}
	i := r.Num()
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

func optString(obj map[string]interface{}, key, ctx string) (string, bool, *apiError) {
	v, ok := field(obj, key)
	if !ok {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, errf(400, "%s%s must be a string", ctx, key)
	}
	return s, true, nil
}

var (
	countryRe      = regexp.MustCompile(`^[A-Za-z]{2}$`)
	intlNumberRe   = regexp.MustCompile(`^\+[0-9]{8,15}$`)
	createNumberRe = regexp.MustCompile(`^\+?[0-9]{8,15}$`)
)

// ---------------------------------------------------------------------------
// Server

type Server struct {
	s *Store
}

func (srv *Server) authenticate(r *http.Request) (int64, *apiError) {
	h := r.Header.Get("Authorization")
	if h == "" {
		if defect == "no-auth" {
			return 1, nil
		}
		return 0, errf(401, "no valid secret key provided")
	}
	parts := strings.SplitN(h, " ", 2)
	if len(parts) != 2 || !strings.EqualFold(parts[0], "Bearer") {
		return 0, errf(401, "no valid secret key provided")
	}
	key := strings.TrimSpace(parts[1])
	srv.s.mu.Lock()
	acct, ok := srv.s.keys[key]
	srv.s.mu.Unlock()
	if !ok || key == "" {
		return 0, errf(401, "no valid secret key provided")
	}
	return acct, nil
}

func parseID(seg, what string) (int64, *apiError) {
	id, err := strconv.ParseInt(seg, 10, 64)
	if err != nil || id <= 0 || strings.HasPrefix(seg, "+") {
		return 0, errf(400, "%s id must be a positive integer", what)
	}
	return id, nil
}

func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if rec := recover(); rec != nil {
			writeErr(w, errf(500, "internal error"))
		}
	}()
	path := r.URL.Path
	if path != "/v1" && !strings.HasPrefix(path, "/v1/") {
		writeErr(w, errf(404, "not found"))
		return
	}
	acct, aerr := srv.authenticate(r)
	if aerr != nil {
		writeErr(w, aerr)
		return
	}
	segs := strings.Split(strings.TrimPrefix(path, "/v1/"), "/")

	var (
		allowed string
		handler func() (int, interface{}, *apiError)
	)
	switch {
	case len(segs) == 2 && segs[0] == "customers":
		allowed = http.MethodDelete
		handler = func() (int, interface{}, *apiError) { return srv.deleteCustomer(acct, segs[1]) }
	case len(segs) == 1 && segs[0] == "transactions":
		allowed = http.MethodPost
		handler = func() (int, interface{}, *apiError) { return srv.createTransaction(acct, r) }
	case len(segs) == 3 && segs[0] == "transactions" && segs[2] == "token":
		allowed = http.MethodPost
		handler = func() (int, interface{}, *apiError) { return srv.linkToken(acct, segs[1]) }
	case len(segs) == 2 && segs[0] == "transactions" && segs[1] != "":
		allowed = http.MethodPost
		handler = func() (int, interface{}, *apiError) { return srv.sendTransaction(acct, segs[1], r) }
	case len(segs) == 2 && segs[0] == "balances":
		allowed = http.MethodGet
		handler = func() (int, interface{}, *apiError) { return srv.getBalance(acct, segs[1]) }
	case len(segs) == 2 && segs[0] == "currencies":
		allowed = http.MethodGet
		handler = func() (int, interface{}, *apiError) { return srv.getCurrency(acct, segs[1]) }
	default:
		writeErr(w, errf(404, "not found"))
		return
	}
	if r.Method != allowed {
		w.Header().Set("Allow", allowed)
		writeErr(w, errf(405, "method %s not allowed", r.Method))
		return
	}
	status, body, herr := handler()
	if herr != nil {
		writeErr(w, herr)
		return
	}
	if status == http.StatusNoContent {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, status, body)
}

// --- 1. DELETE /customers/{id}

func (srv *Server) deleteCustomer(acct int64, seg string) (int, interface{}, *apiError) {
	id, e := parseID(seg, "customer")
	if e != nil {
		return 0, nil, e
	}
	s := srv.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.customers[id]
	if !ok || c.AccountID != acct {
		if defect == "delete-500" {
			return 0, nil, errf(500, "internal error")
		}
		return 0, nil, errf(404, "customer not found")
	}
	delete(s.customers, id)
	return http.StatusNoContent, nil, nil
}

// --- 2. POST /transactions

func (srv *Server) createTransaction(acct int64, r *http.Request) (int, interface{}, *apiError) {
	body, e := decodeObject(r)
	if e != nil {
		return 0, nil, e
	}

	// amount: required, integral JSON number, > 0
	av, ok := field(body, "amount")
	if !ok {
		return 0, nil, errf(400, "amount is required")
	}
	amount, ok := integral(av)
	if !ok || amount <= 0 {
		return 0, nil, errf(400, "amount must be a positive integer")
	}

	// description: optional string, trimmed
	description, _, e := optString(body, "description", "")
	if e != nil {
		return 0, nil, e
	}
	description = strings.TrimSpace(description)

	// currency: required object with iso
	cv, ok := field(body, "currency")
	if !ok {
		return 0, nil, errf(400, "currency is required")
	}
	cobj, ok := cv.(map[string]interface{})
	if !ok {
		return 0, nil, errf(400, "currency must be an object")
	}
	iso, hasIso, e := optString(cobj, "iso", "currency.")
	if e != nil {
		return 0, nil, e
	}
	iso = strings.ToUpper(strings.TrimSpace(iso))
	if !hasIso || iso == "" {
		return 0, nil, errf(400, "currency.iso is required")
	}

	// callback_url: optional absolute http(s) URL
	callback := ""
	if cb, has, e := optString(body, "callback_url", ""); e != nil {
		return 0, nil, e
	} else if has && strings.TrimSpace(cb) != "" {
		u, err := url.Parse(strings.TrimSpace(cb))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return 0, nil, errf(400, "callback_url must be an absolute http or https URL")
		}
		if defect == "drop-callback-query" {
			u.RawQuery = ""
			u.ForceQuery = false
		}
		callback = u.String()
	}

	// custom_metadata: optional object
	var meta map[string]interface{}
	if mv, has := field(body, "custom_metadata"); has {
		m, ok := mv.(map[string]interface{})
		if !ok {
			return 0, nil, errf(400, "custom_metadata must be an object")
		}
		meta = m
	}

	// mode: optional string
	mode, hasMode, e := optString(body, "mode", "")
	if e != nil {
		return 0, nil, e
	}
	mode = strings.TrimSpace(mode)

	// customer: optional object
	var custObj map[string]interface{}
	if cv, has := field(body, "customer"); has {
		m, ok := cv.(map[string]interface{})
		if !ok {
			return 0, nil, errf(400, "customer must be an object")
		}
		custObj = m
	}
	var newCust *Customer
	var custID int64
	if custObj != nil {
		if idv, has := field(custObj, "id"); has {
			id, ok := integral(idv)
			if !ok || id <= 0 {
				return 0, nil, errf(400, "customer.id must be a positive integer")
			}
			custID = id
		} else {
			c, e := parseCustomer(custObj)
			if e != nil {
				return 0, nil, e
			}
			newCust = c
		}
	}

	s := srv.s
	s.mu.Lock()
	defer s.mu.Unlock()

	var cur *Currency
	for _, c := range s.currencies {
		if c.AccountID == acct && strings.EqualFold(c.Name, iso) {
			cur = c
			break
		}
	}
	if cur == nil {
		return 0, nil, errf(400, "currency %q is not available for this account", iso)
	}
	if hasMode {
		if !contains(cur.Modes, mode) {
			return 0, nil, errf(400, "mode %q is not available for currency %s", mode, cur.Name)
		}
	}
	if custID != 0 {
		c, ok := s.customers[custID]
		if !ok || c.AccountID != acct {
			return 0, nil, errf(404, "customer not found")
		}
	}
	if newCust != nil {
		newCust.ID = s.nextCustomer
		newCust.AccountID = acct
		s.nextCustomer++
		s.customers[newCust.ID] = newCust
		custID = newCust.ID
	}

	if defect == "amount-plus-one" {
		amount++
	}
	t := now()
	tx := &Transaction{
		ID:             s.nextTx,
		Reference:      "trx_" + randHex(8),
		Amount:         amount,
		Description:    description,
		CallbackURL:    callback,
		Status:         "pending",
		CreatedAt:      t,
		UpdatedAt:      t,
		accountID:      acct,
		currencyID:     cur.ID,
		mode:           mode,
		customerID:     custID,
		customMetadata: meta,
	}
	s.nextTx++
	s.transactions[tx.ID] = tx
	return http.StatusOK, tx, nil
}

func parseCustomer(obj map[string]interface{}) (*Customer, *apiError) {
	c := &Customer{}
	var e *apiError
	var any bool
	var has bool
	if c.Email, has, e = optString(obj, "email", "customer."); e != nil {
		return nil, e
	}
	c.Email = strings.TrimSpace(c.Email)
	if has && c.Email != "" {
		any = true
		if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != c.Email {
			return nil, errf(400, "customer.email is not a valid email address")
		}
	}
	if c.Firstname, has, e = optString(obj, "firstname", "customer."); e != nil {
		return nil, e
	}
	c.Firstname = strings.TrimSpace(c.Firstname)
	any = any || c.Firstname != ""
	if c.Lastname, has, e = optString(obj, "lastname", "customer."); e != nil {
		return nil, e
	}
	c.Lastname = strings.TrimSpace(c.Lastname)
	any = any || c.Lastname != ""
	if pv, ok := field(obj, "phone_number"); ok {
		pobj, ok := pv.(map[string]interface{})
		if !ok {
			return nil, errf(400, "customer.phone_number must be an object")
		}
		var number string
		nv, ok := field(pobj, "number")
		if !ok {
			return nil, errf(400, "customer.phone_number.number is required")
		}
		switch n := nv.(type) {
		case json.Number:
			i, ok := integral(n)
			if !ok || i <= 0 {
				return nil, errf(400, "customer.phone_number.number must be a positive integer or a string of digits")
			}
			number = strconv.FormatInt(i, 10)
		case string:
			number = strings.TrimSpace(n)
		default:
			return nil, errf(400, "customer.phone_number.number must be a number or a string")
		}
		if !createNumberRe.MatchString(number) {
			return nil, errf(400, "customer.phone_number.number must hold 8 to 15 digits")
		}
		country, _, e := optString(pobj, "country", "customer.phone_number.")
		if e != nil {
			return nil, e
		}
		country = strings.TrimSpace(country)
		if country != "" && !countryRe.MatchString(country) {
			return nil, errf(400, "customer.phone_number.country must be a two-letter country code")
		}
		c.Phone = &PhoneNumber{Number: "+" + strings.TrimPrefix(number, "+"), Country: strings.ToUpper(country)}
		any = true
	}
	if !any {
		return nil, errf(400, "customer must carry an id or at least one of email, firstname, lastname, phone_number")
	}
	return c, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// --- 3. POST /transactions/{id}/token

func (srv *Server) linkToken(acct int64, seg string) (int, interface{}, *apiError) {
	id, e := parseID(seg, "transaction")
	if e != nil {
		return 0, nil, e
	}
	s := srv.s
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, ok := s.transactions[id]
	if !ok || tx.accountID != acct {
		return 0, nil, errf(404, "transaction not found")
	}
	if tx.Status != "pending" {
		return 0, nil, errf(409, "transaction is %s, not pending", tx.Status)
	}
	if tx.token == "" {
		tx.token = s.makeToken(tx.ID)
		s.tokens[tx.token] = tx.ID
	}
	return http.StatusOK, PaymentLink{Token: tx.token, URL: "https://checkout.sandbox.invalid/pay/" + tx.token}, nil
}

// --- 4. POST /transactions/{mode}

func (srv *Server) sendTransaction(acct int64, mode string, r *http.Request) (int, interface{}, *apiError) {
	body, e := decodeObject(r)
	if e != nil {
		return 0, nil, e
	}
	tv, ok := field(body, "token")
	if !ok {
		return 0, nil, errf(400, "token is required")
	}
	token, ok := tv.(string)
	if !ok {
		return 0, nil, errf(400, "token must be a string")
	}
	if token == "" {
		return 0, nil, errf(400, "token is required")
	}
	var phone *PhoneNumber
	if pv, has := field(body, "phone_number"); has {
		pobj, ok := pv.(map[string]interface{})
		if !ok {
			return 0, nil, errf(400, "phone_number must be an object")
		}
		num, hasNum, e := optString(pobj, "number", "phone_number.")
		if e != nil {
			return 0, nil, e
		}
		num = strings.TrimSpace(num)
		if !hasNum || num == "" {
			return 0, nil, errf(400, "phone_number.number is required")
		}
		if !intlNumberRe.MatchString(num) {
			return 0, nil, errf(400, "phone_number.number must be an international number such as +22997000001")
		}
		country, hasCountry, e := optString(pobj, "country", "phone_number.")
		if e != nil {
			return 0, nil, e
		}
		country = strings.TrimSpace(country)
		if !hasCountry || country == "" {
			return 0, nil, errf(400, "phone_number.country is required")
		}
		if !countryRe.MatchString(country) {
			return 0, nil, errf(400, "phone_number.country must be a two-letter country code")
		}
		phone = &PhoneNumber{Number: num, Country: strings.ToUpper(country)}
	}

	s := srv.s
	s.mu.Lock()
	defer s.mu.Unlock()
	txID, ok := s.tokens[token]
	if !ok {
		return 0, nil, errf(404, "transaction token not found")
	}
	tx, ok := s.transactions[txID]
	if !ok || tx.accountID != acct {
		return 0, nil, errf(404, "transaction token not found")
	}
	cur := s.currencies[tx.currencyID]
	if cur == nil || !contains(cur.Modes, mode) {
		return 0, nil, errf(400, "mode %q is not available for this transaction's currency", mode)
	}
	if tx.mode != "" && tx.mode != mode {
		return 0, nil, errf(400, "transaction was created for mode %q, not %q", tx.mode, mode)
	}
	if tx.Status != "pending" {
		return 0, nil, errf(409, "transaction is %s, not pending", tx.Status)
	}
	if phone == nil && tx.customerID != 0 {
		if c, ok := s.customers[tx.customerID]; ok && c.Phone != nil {
			phone = c.Phone
		}
	}
	var pmID int64
	if phone != nil {
		k := pmKey{account: acct, mode: mode, number: phone.Number, country: phone.Country}
		if id, ok := s.paymentMethod[k]; ok {
			pmID = id
		} else {
			pmID = s.nextPM
			s.nextPM++
			s.paymentMethod[k] = pmID
		}
	}
	t := now()
	tx.Status = "approved"
	tx.UpdatedAt = t
	if b, ok := s.balances[acct]; ok {
		b.Amount += tx.Amount
		b.UpdatedAt = t
	}
	intent := PaymentIntent{
		Reference:       "pi_" + randHex(8),
		Amount:          tx.Amount,
		Status:          "sent",
		CurrencyID:      tx.currencyID,
		Mode:            mode,
		CreatedAt:       t,
		UpdatedAt:       t,
		ApprovedAt:      t,
		PaymentMethodID: pmID,
		TransactionKey:  randHex(16),
		AccountID:       acct,
	}
	return http.StatusOK, []PaymentIntent{intent}, nil
}

// --- 5. GET /balances/{id}

func (srv *Server) getBalance(acct int64, seg string) (int, interface{}, *apiError) {
	id, e := parseID(seg, "balance")
	if e != nil {
		return 0, nil, e
	}
	s := srv.s
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.balances[id]
	if !ok || b.AccountID != acct {
		return 0, nil, errf(404, "balance not found")
	}
	return http.StatusOK, []Balance{*b}, nil
}

// --- 6. GET /currencies/{id}

func (srv *Server) getCurrency(acct int64, seg string) (int, interface{}, *apiError) {
	id, e := parseID(seg, "currency")
	if e != nil {
		return 0, nil, e
	}
	s := srv.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.currencies[id]
	if !ok || c.AccountID != acct {
		return 0, nil, errf(404, "currency not found")
	}
	cp := *c
	cp.Modes = append([]string(nil), c.Modes...)
	return http.StatusOK, []Currency{cp}, nil
}

// ---------------------------------------------------------------------------

func main() {
	port := envOr("PORT", "8080")
	srv := &http.Server{
		Addr:              "127.0.0.1:" + port,
		Handler:           &Server{s: newStore()},
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
