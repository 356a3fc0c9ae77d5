package sandbox;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import sandbox.Config.Defect;
import sandbox.Entities.Account;
import sandbox.Entities.Balance;
import sandbox.Entities.Currency;
import sandbox.Entities.Customer;
import sandbox.Entities.PaymentIntent;
import sandbox.Entities.PhoneNumber;
import sandbox.Entities.Transaction;
import sandbox.model.BalanceResponse;
import sandbox.model.CreateCustomerRequest;
import sandbox.model.CreateTransactionRequest;
import sandbox.model.CurrencyResponse;
import sandbox.model.CustomerPayload;
import sandbox.model.CustomerResponse;
import sandbox.model.PaymentIntentResponse;
import sandbox.model.PaymentLinkResponse;
import sandbox.model.PhoneNumberPayload;
import sandbox.model.PhoneNumberResponse;
import sandbox.model.SendTransactionRequest;
import sandbox.model.TransactionResponse;

/** Business operations and the hand-written validation of request objects. */
final class Service {
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    private static final Pattern PHONE = Pattern.compile("^\\+?[0-9]{4,15}$");
    private static final Pattern COUNTRY = Pattern.compile("^[A-Za-z]{2}$");
    private static final Pattern ID = Pattern.compile("^[0-9]{1,18}$");
    private static final String ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final String HEX = "0123456789abcdef";

    private final Store store;
    private final Config config;
    private final Callbacks callbacks;
    private final SecureRandom random = new SecureRandom();

    Service(Store store, Config config, Callbacks callbacks) {
        this.store = store;
        this.config = config;
        this.callbacks = callbacks;
    }

    // ---------------------------------------------------------------- customers

    CustomerResponse createCustomer(Account account, CreateCustomerRequest req) {
        Customer c = newCustomer(account, req.email, req.firstname, req.lastname, req.phoneNumber, "");
        store.customers.put(c.id, c);
        return toResponse(c);
    }

    void deleteCustomer(Account account, String idText) {
        Long id = parseId(idText);
        Customer c = id == null ? null : store.customers.get(id);
        if (c == null || c.accountId != account.id() || !store.customers.remove(id, c)) {
            if (config.defect() == Defect.DELETE_500) {
                throw new ApiException(500, "internal_error", "Internal server error");
            }
            throw ApiException.notFound("Customer");
        }
    }

    private Customer newCustomer(Account account, String email, String firstname, String lastname,
                                 PhoneNumberPayload phone, String prefix) {
        if (email == null || email.isBlank()) {
            throw ApiException.invalid(prefix + "email", "is required");
        }
        if (!EMAIL.matcher(email).matches()) {
            throw ApiException.invalid(prefix + "email", "must be a valid e-mail address");
        }
        Customer c = new Customer();
        c.accountId = account.id();
        c.email = email;
        c.firstname = firstname;
        c.lastname = lastname;
        c.phoneNumber = phone == null ? null : validatePhone(phone, prefix + "phone_number");
        c.createdAt = new Date();
        c.updatedAt = c.createdAt;
        c.id = store.customerSeq.incrementAndGet();
        return c;
    }

    private PhoneNumber validatePhone(PhoneNumberPayload p, String field) {
        if (p.number == null || p.number.isBlank()) {
            throw ApiException.invalid(field + ".number", "is required");
        }
        String number = p.number.trim();
        if (!PHONE.matcher(number).matches()) {
            throw ApiException.invalid(field + ".number", "must be a phone number of 4 to 15 digits, optionally prefixed with +");
        }
        if (p.country == null || p.country.isBlank()) {
            throw ApiException.invalid(field + ".country", "is required");
        }
        String country = p.country.trim();
        if (!COUNTRY.matcher(country).matches()) {
            throw ApiException.invalid(field + ".country", "must be a two-letter country code");
        }
        return new PhoneNumber(number, country.toUpperCase(Locale.ROOT));
    }

    // ------------------------------------------------------------- transactions

    TransactionResponse createTransaction(Account account, CreateTransactionRequest req) {
        if (req.amount <= 0) {
            throw ApiException.invalid("amount", "is required and must be a positive integer");
        }
        Currency currency;
        if (req.currency == null) {
            currency = defaultCurrency(account);
        } else {
            if (req.currency.iso == null || req.currency.iso.isBlank()) {
                throw ApiException.invalid("currency.iso", "is required");
            }
            currency = currencyByIso(account, req.currency.iso.trim());
            if (currency == null) {
                throw ApiException.invalid("currency.iso", "is not a currency of this account");
            }
        }
        String callbackUrl = req.callbackUrl;
        if (callbackUrl != null) {
            validateUrl(callbackUrl, "callback_url");
            if (config.defect() == Defect.DROP_CALLBACK_QUERY) {
                callbackUrl = dropQuery(callbackUrl);
            }
        }
        if (req.mode != null && !currency.modes.contains(req.mode)) {
            throw ApiException.invalid("mode", "must be one of " + currency.modes);
        }
        Customer newCustomer = null;
        Long customerId = null;
        CustomerPayload cp = req.customer;
        if (cp != null) {
            if (cp.id != null) {
                Customer existing = store.customers.get(cp.id);
                if (existing == null || existing.accountId != account.id()) {
                    throw new ApiException(404, "not_found", "Customer not found", "customer.id");
                }
                customerId = existing.id;
            } else {
                newCustomer = newCustomer(account, cp.email, cp.firstname, cp.lastname, cp.phoneNumber, "customer.");
                customerId = newCustomer.id;
            }
        }
        if (newCustomer != null) {
            store.customers.put(newCustomer.id, newCustomer);
        }
        Transaction t = new Transaction();
        t.id = store.transactionSeq.incrementAndGet();
        t.accountId = account.id();
        t.reference = "trx_" + randomString(ALNUM, 10) + t.id;
        long amount = req.amount;
        if (config.defect() == Defect.AMOUNT_PLUS_ONE && amount < Long.MAX_VALUE) {
            amount = amount + 1;
        }
        t.amount = amount;
        t.description = req.description;
        t.callbackUrl = callbackUrl;
        t.status = "pending";
        t.createdAt = new Date();
        t.updatedAt = t.createdAt;
        t.currencyId = currency.id;
        t.customerId = customerId;
        t.customMetadata = req.customMetadata;
        t.mode = req.mode;
        store.transactions.put(t.id, t);
        synchronized (t) {
            return toResponse(t);
        }
    }

    PaymentLinkResponse token(Account account, String idText, String baseUrl) {
        Long id = parseId(idText);
        Transaction t = id == null ? null : store.transactions.get(id);
        if (t == null || t.accountId != account.id()) {
            throw ApiException.notFound("Transaction");
        }
        String token;
        synchronized (t) {
            if (t.token == null) {
                String candidate;
                do {
                    candidate = Long.toString(100_000_000_000_000L + random.nextLong(900_000_000_000_000L));
                } while (store.transactionsByToken.putIfAbsent(candidate, t) != null);
                t.token = candidate;
            }
            token = t.token;
        }
        return new PaymentLinkResponse(token, baseUrl + "/pay/" + token);
    }

    List<PaymentIntentResponse> send(Account account, String mode, SendTransactionRequest req) {
        if (!accountModes(account).contains(mode)) {
            throw new ApiException(400, "invalid_mode", "Unsupported payment mode '" + mode + "'", "mode");
        }
        if (req.token == null || req.token.isBlank()) {
            throw ApiException.invalid("token", "is required");
        }
        PhoneNumber phone = req.phoneNumber == null ? null : validatePhone(req.phoneNumber, "phone_number");
        Transaction t = store.transactionsByToken.get(req.token.trim());
        if (t == null || t.accountId != account.id()) {
            throw new ApiException(404, "not_found", "No transaction for this token", "token");
        }
        Currency currency = store.currencies.get(t.currencyId);
        if (currency == null || !currency.modes.contains(mode)) {
            throw new ApiException(400, "invalid_mode", "Mode '" + mode + "' is not available for the transaction's currency", "mode");
        }
        if (phone == null && t.customerId != null) {
            Customer c = store.customers.get(t.customerId);
            if (c != null) {
                phone = c.phoneNumber;
            }
        }
        PaymentIntent pi;
        TransactionResponse approved;
        synchronized (t) {
            if (!"pending".equals(t.status)) {
                throw new ApiException(409, "transaction_not_pending",
                        "Transaction is " + t.status + " and cannot be sent again");
            }
            Date now = new Date();
            pi = new PaymentIntent();
            pi.reference = "pi_" + randomString(ALNUM, 12);
            pi.amount = t.amount;
            pi.status = "sent";
            pi.currencyId = t.currencyId;
            pi.mode = mode;
            pi.lastErrorCode = null;
            pi.createdAt = now;
            pi.updatedAt = now;
            pi.approvedAt = now;
            pi.paymentMethodId = paymentMethodId(account, mode, phone);
            pi.transactionKey = randomString(HEX, 32);
            pi.accountId = account.id();
            pi.phoneNumber = phone;
            t.intent = pi;
            t.status = "approved";
            t.mode = mode;
            t.updatedAt = now;
            approved = toResponse(t);
        }
        if (config.callbacks() && approved.callbackUrl != null) {
            callbacks.transactionUpdated(approved);
        }
        List<PaymentIntentResponse> out = new ArrayList<>(1);
        out.add(toResponse(pi));
        return out;
    }

    Transaction transactionByToken(String token) {
        return token == null ? null : store.transactionsByToken.get(token);
    }

    private long paymentMethodId(Account account, String mode, PhoneNumber phone) {
        String key = account.id() + "|" + mode + "|" + (phone == null ? "" : phone.number());
        return store.paymentMethods.computeIfAbsent(key, k -> store.paymentMethodSeq.incrementAndGet());
    }

    // ------------------------------------------------------ balances/currencies

    List<BalanceResponse> balance(Account account, String idText) {
        Long id = parseId(idText);
        Balance b = id == null ? null : store.balances.get(id);
        if (b == null || b.accountId != account.id()) {
            throw ApiException.notFound("Balance");
        }
        BalanceResponse r = new BalanceResponse();
        synchronized (b) {
            r.id = b.id;
            r.amount = b.amount;
            r.mode = b.mode;
            r.accountId = b.accountId;
            r.createdAt = b.createdAt;
            r.updatedAt = b.updatedAt;
        }
        List<BalanceResponse> out = new ArrayList<>(1);
        out.add(r);
        return out;
    }

    List<CurrencyResponse> currency(Account account, String idText) {
        Long id = parseId(idText);
        Currency c = id == null ? null : store.currencies.get(id);
        if (c == null || c.accountId != account.id()) {
            throw ApiException.notFound("Currency");
        }
        CurrencyResponse r = new CurrencyResponse();
        r.id = c.id;
        r.name = c.name;
        r.modes = c.modes;
        r.prefix = c.prefix;
        r.suffix = c.suffix;
        r.accountId = c.accountId;
        r.createdAt = c.createdAt;
        r.updatedAt = c.updatedAt;
        r.isDefault = c.isDefault;
        List<CurrencyResponse> out = new ArrayList<>(1);
        out.add(r);
        return out;
    }

    // ------------------------------------------------------------------ helpers

    private Currency defaultCurrency(Account account) {
        Currency fallback = null;
        for (Currency c : store.currencies.values()) {
            if (c.accountId == account.id()) {
                if (c.isDefault) {
                    return c;
                }
                fallback = c;
            }
        }
        if (fallback == null) {
            throw new ApiException(400, "invalid_request", "The account has no currency", "currency");
        }
        return fallback;
    }

    private Currency currencyByIso(Account account, String iso) {
        for (Currency c : store.currencies.values()) {
            if (c.accountId == account.id() && c.iso.equalsIgnoreCase(iso)) {
                return c;
            }
        }
        return null;
    }

    private List<String> accountModes(Account account) {
        List<String> modes = new ArrayList<>();
        for (Currency c : store.currencies.values()) {
            if (c.accountId == account.id()) {
                modes.addAll(c.modes);
            }
        }
        return modes;
    }

    private static void validateUrl(String url, String field) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw ApiException.invalid(field, "must be an absolute http or https URL");
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                || uri.getHost() == null || uri.getHost().isEmpty()) {
            throw ApiException.invalid(field, "must be an absolute http or https URL");
        }
    }

    static String dropQuery(String url) {
        int hash = url.indexOf('#');
        int q = url.indexOf('?');
        if (q < 0 || (hash >= 0 && hash < q)) {
            return url;
        }
        return url.substring(0, q) + (hash >= 0 ? url.substring(hash) : "");
    }

    static Long parseId(String text) {
        if (text == null || !ID.matcher(text).matches()) {
            return null;
        }
        return Long.parseLong(text);
    }

    private String randomString(String alphabet, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    static TransactionResponse toResponse(Transaction t) {
        TransactionResponse r = new TransactionResponse();
        r.id = t.id;
        r.reference = t.reference;
        r.amount = t.amount;
        r.description = t.description;
        r.callbackUrl = t.callbackUrl;
        r.status = t.status;
        r.createdAt = t.createdAt;
        r.updatedAt = t.updatedAt;
        return r;
    }

    static PaymentIntentResponse toResponse(PaymentIntent p) {
        PaymentIntentResponse r = new PaymentIntentResponse();
        r.reference = p.reference;
        r.amount = p.amount;
        r.status = p.status;
        r.currencyId = p.currencyId;
        r.mode = p.mode;
        r.lastErrorCode = p.lastErrorCode;
        r.createdAt = p.createdAt;
        r.updatedAt = p.updatedAt;
        r.approvedAt = p.approvedAt;
        r.canceledAt = p.canceledAt;
        r.deletedAt = p.deletedAt;
        r.paymentMethodId = p.paymentMethodId;
        r.transactionKey = p.transactionKey;
        r.accountId = p.accountId;
        return r;
    }

    static CustomerResponse toResponse(Customer c) {
        CustomerResponse r = new CustomerResponse();
        r.id = c.id;
        r.email = c.email;
        r.firstname = c.firstname;
        r.lastname = c.lastname;
        r.phoneNumber = c.phoneNumber == null ? null
                : new PhoneNumberResponse(c.phoneNumber.number(), c.phoneNumber.country());
        r.createdAt = c.createdAt;
        r.updatedAt = c.updatedAt;
        return r;
    }
}
