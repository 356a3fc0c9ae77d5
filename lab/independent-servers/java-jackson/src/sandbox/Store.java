package sandbox;

import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import sandbox.Entities.Account;
import sandbox.Entities.Balance;
import sandbox.Entities.Currency;
import sandbox.Entities.Customer;
import sandbox.Entities.Transaction;

/** In-memory store: concurrent maps keyed by id, global id sequences shared by all accounts. */
final class Store {
    final Map<String, Account> accountsByKey = new ConcurrentHashMap<>();
    final Map<Long, Account> accounts = new ConcurrentHashMap<>();
    final Map<Long, Balance> balances = new ConcurrentHashMap<>();
    final Map<Long, Currency> currencies = new ConcurrentHashMap<>();
    final Map<Long, Customer> customers = new ConcurrentHashMap<>();
    final Map<Long, Transaction> transactions = new ConcurrentHashMap<>();
    final Map<String, Transaction> transactionsByToken = new ConcurrentHashMap<>();
    final Map<String, Long> paymentMethods = new ConcurrentHashMap<>();

    final AtomicLong customerSeq = new AtomicLong();
    final AtomicLong transactionSeq = new AtomicLong();
    final AtomicLong paymentMethodSeq = new AtomicLong();

    Store(Config config) {
        Date now = new Date();
        addAccount(1, config.secretKey());
        if (config.secondSecretKey() != null && !config.secondSecretKey().equals(config.secretKey())) {
            addAccount(2, config.secondSecretKey());
        } else {
            accounts.put(2L, new Account(2, null)); // account without a usable key
        }
        // account 1 owns balance 1 (mtn), balance 3 (moov), currency 1; account 2 owns 2, 4 and currency 2
        addBalance(1, 1, "mtn", now);
        addBalance(2, 2, "mtn", now);
        addBalance(3, 1, "moov", now);
        addBalance(4, 2, "moov", now);
        addCurrency(1, 1, now);
        addCurrency(2, 2, now);
    }

    private void addAccount(long id, String key) {
        Account a = new Account(id, key);
        accounts.put(id, a);
        accountsByKey.put(key, a);
    }

    private void addBalance(long id, long accountId, String mode, Date now) {
        Balance b = new Balance();
        b.id = id;
        b.accountId = accountId;
        b.amount = 0;
        b.mode = mode;
        b.createdAt = now;
        b.updatedAt = now;
        balances.put(id, b);
    }

    private void addCurrency(long id, long accountId, Date now) {
        Currency c = new Currency();
        c.id = id;
        c.accountId = accountId;
        c.iso = "XOF";
        c.name = "FCFA";
        c.modes = List.of("mtn", "moov");
        c.prefix = "";
        c.suffix = "CFA";
        c.isDefault = true;
        c.createdAt = now;
        c.updatedAt = now;
        currencies.put(id, c);
    }

    Account accountForKey(String key) {
        return key == null || key.isEmpty() ? null : accountsByKey.get(key);
    }

    Account account(long id) {
        return accounts.get(id);
    }
}
