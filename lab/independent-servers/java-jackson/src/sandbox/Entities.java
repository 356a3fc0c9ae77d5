package sandbox;

import java.util.Date;
import java.util.List;
import java.util.Map;

/** In-memory domain records. Mutable state of a transaction is guarded by the transaction's monitor. */
final class Entities {
    private Entities() {}

    record Account(long id, String secretKey) {}

    record PhoneNumber(String number, String country) {}

    static final class Currency {
        long id;
        long accountId;
        String iso;          // internal: matched against currency.iso of the creation payload
        String name;
        List<String> modes;
        String prefix;
        String suffix;
        boolean isDefault;
        Date createdAt;
        Date updatedAt;
    }

    static final class Balance {
        long id;
        long accountId;
        long amount;
        String mode;
        Date createdAt;
        Date updatedAt;
    }

    static final class Customer {
        long id;
        long accountId;
        String email;
        String firstname;
        String lastname;
        PhoneNumber phoneNumber;
        Date createdAt;
        Date updatedAt;
    }

    static final class PaymentIntent {
        String reference;
        long amount;
        String status;
        long currencyId;
        String mode;
        String lastErrorCode;
        Date createdAt;
        Date updatedAt;
        Date approvedAt;
        Date canceledAt;
        Date deletedAt;
        long paymentMethodId;
        String transactionKey;
        long accountId;
        PhoneNumber phoneNumber;
    }

    static final class Transaction {
        long id;
        long accountId;
        String reference;
        long amount;
        String description;
        String callbackUrl;
        String status;
        Date createdAt;
        Date updatedAt;
        long currencyId;
        Long customerId;
        Map<String, Object> customMetadata;
        String mode;
        String token;               // assigned by the token operation
        PaymentIntent intent;       // set once the transaction was sent
    }
}
