<?php
declare(strict_types=1);

require __DIR__ . '/lib.php';

final class HttpError extends Exception
{
    public function __construct(public int $status, string $message, public ?array $errors = null)
    {
        parent::__construct($message);
    }
}

function send_json(int $status, mixed $data): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($data, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
}

function defect(string $name): bool
{
    return getenv('DEFECT') === $name;
}

/* ---------- authentication ---------- */

function authenticate(): int
{
    $header = $_SERVER['HTTP_AUTHORIZATION'] ?? null;
    if ($header === null && function_exists('getallheaders')) {
        foreach (getallheaders() as $k => $v) {
            if (strcasecmp($k, 'Authorization') === 0) {
                $header = $v;
            }
        }
    }
    if ($header === null || $header === '') {
        if (defect('no-auth')) {
            return 1;
        }
        throw new HttpError(401, 'No valid secret key provided.');
    }
    if (!preg_match('/^Bearer\s+(\S+)\s*$/i', $header, $m)) {
        throw new HttpError(401, 'No valid secret key provided.');
    }
    $stmt = db()->prepare('SELECT id FROM accounts WHERE secret_key = ?');
    $stmt->execute([$m[1]]);
    $id = $stmt->fetchColumn();
    if ($id === false) {
        throw new HttpError(401, 'No valid secret key provided.');
    }
    return (int) $id;
}

/* ---------- helpers ---------- */

function json_body(): array
{
    $raw = file_get_contents('php://input');
    if ($raw === false || trim($raw) === '') {
        return [];
    }
    try {
        $data = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
    } catch (JsonException $e) {
        throw new HttpError(400, 'Malformed JSON body: ' . $e->getMessage());
    }
    if (!is_array($data) || (array_is_list($data) && $data !== [])) {
        throw new HttpError(400, 'The request body must be a JSON object.');
    }
    return $data;
}

function is_json_object(mixed $v): bool
{
    return is_array($v) && ($v === [] || !array_is_list($v));
}

function random_ref(string $prefix, int $bytes = 6): string
{
    return $prefix . strtoupper(bin2hex(random_bytes($bytes)));
}

function currency_by_iso(int $accountId, string $iso): ?array
{
    $stmt = db()->prepare('SELECT * FROM currencies WHERE account_id = ? AND UPPER(iso) = ?');
    $stmt->execute([$accountId, strtoupper($iso)]);
    $row = $stmt->fetch();
    return $row ?: null;
}

function currency_by_id(int $accountId, int $id): ?array
{
    $stmt = db()->prepare('SELECT * FROM currencies WHERE account_id = ? AND id = ?');
    $stmt->execute([$accountId, $id]);
    $row = $stmt->fetch();
    return $row ?: null;
}

function transaction_out(array $t): array
{
    return [
        'id' => (int) $t['id'],
        'reference' => $t['reference'],
        'amount' => (int) $t['amount'],
        'description' => $t['description'],
        'callback_url' => $t['callback_url'],
        'status' => $t['status'],
        'currency_id' => (int) $t['currency_id'],
        'customer_id' => $t['customer_id'] === null ? null : (int) $t['customer_id'],
        'mode' => $t['mode'],
        'custom_metadata' => $t['custom_metadata'] === null ? null : json_decode($t['custom_metadata']),
        'created_at' => $t['created_at'],
        'updated_at' => $t['updated_at'],
    ];
}

function intent_out(array $p): array
{
    return [
        'id' => (int) $p['id'],
        'reference' => $p['reference'],
        'amount' => (int) $p['amount'],
        'status' => $p['status'],
        'currency_id' => (int) $p['currency_id'],
        'mode' => $p['mode'],
        'last_error_code' => $p['last_error_code'],
        'created_at' => $p['created_at'],
        'updated_at' => $p['updated_at'],
        'approved_at' => $p['approved_at'],
        'canceled_at' => $p['canceled_at'],
        'deleted_at' => $p['deleted_at'],
        'payment_method_id' => $p['payment_method_id'] === null ? null : (int) $p['payment_method_id'],
        'transaction_key' => $p['transaction_key'],
        'account_id' => (int) $p['account_id'],
        'transaction_id' => (int) $p['transaction_id'],
    ];
}

function balance_out(array $b): array
{
    return [
        'id' => (int) $b['id'],
        'amount' => (int) $b['amount'],
        'mode' => $b['mode'],
        'account_id' => (int) $b['account_id'],
        'created_at' => $b['created_at'],
        'updated_at' => $b['updated_at'],
    ];
}

function currency_out(array $c): array
{
    return [
        'id' => (int) $c['id'],
        'name' => $c['name'],
        'iso' => $c['iso'],
        'modes' => json_decode($c['modes'], true),
        'prefix' => $c['prefix'],
        'suffix' => $c['suffix'],
        'account_id' => (int) $c['account_id'],
        'created_at' => $c['created_at'],
        'updated_at' => $c['updated_at'],
        'default' => (bool) $c['is_default'],
    ];
}

/** Validates a phone_number object; returns [number, country] or adds errors. */
function validate_phone(mixed $phone, string $field, array &$errors): ?array
{
    if ($phone === null) {
        return null;
    }
    if (!is_json_object($phone)) {
        $errors[$field][] = 'The ' . $field . ' field must be an object.';
        return null;
    }
    $number = $phone['number'] ?? null;
    if (is_int($number)) {
        $number = (string) $number;
    }
    if (!is_string($number) || trim($number) === '') {
        $errors[$field . '.number'][] = 'The ' . $field . '.number field is required.';
    } else {
        $number = preg_replace('/[\s\-().]/', '', trim($number));
        if (!preg_match('/^\+?[0-9]{6,15}$/', $number)) {
            $errors[$field . '.number'][] = 'The ' . $field . '.number field must be a valid phone number.';
        }
    }
    $country = $phone['country'] ?? null;
    if (!is_string($country) || trim($country) === '') {
        $errors[$field . '.country'][] = 'The ' . $field . '.country field is required.';
    } else {
        $country = strtoupper(trim($country));
        if (!preg_match('/^[A-Z]{2}$/', $country)) {
            $errors[$field . '.country'][] = 'The ' . $field . '.country field must be a two-letter country code.';
        }
    }
    return [$number, $country];
}

/* ---------- handlers ---------- */

function delete_customer(int $accountId, string $id): void
{
    $pdo = db();
    $stmt = $pdo->prepare('DELETE FROM customers WHERE id = ? AND account_id = ?');
    $stmt->execute([(int) $id, $accountId]);
    if ($stmt->rowCount() === 0) {
        if (defect('delete-500')) {
            throw new RuntimeException('customer lookup failed');
        }
        throw new HttpError(404, 'Customer not found.');
    }
    http_response_code(204);
}

function create_transaction(int $accountId): void
{
    $body = json_body();
    $errors = [];

    // amount
    $amount = $body['amount'] ?? null;
    if ($amount === null) {
        $errors['amount'][] = 'The amount field is required.';
    } elseif (!is_int($amount)) {
        $errors['amount'][] = 'The amount field must be an integer.';
    } elseif ($amount < 1) {
        $errors['amount'][] = 'The amount field must be at least 1.';
    }

    // description
    $description = $body['description'] ?? null;
    if ($description !== null) {
        if (!is_string($description)) {
            $errors['description'][] = 'The description field must be a string.';
        } else {
            $description = trim($description);
            if (preg_match_all('/./us', $description) > 255) {
                $errors['description'][] = 'The description field must not be greater than 255 characters.';
            }
        }
    }

    // currency
    $currency = null;
    $cur = $body['currency'] ?? null;
    if ($cur === null) {
        $errors['currency'][] = 'The currency field is required.';
    } elseif (!is_json_object($cur)) {
        $errors['currency'][] = 'The currency field must be an object.';
    } else {
        $iso = $cur['iso'] ?? null;
        if (!is_string($iso) || trim($iso) === '') {
            $errors['currency.iso'][] = 'The currency.iso field is required.';
        } else {
            $currency = currency_by_iso($accountId, trim($iso));
            if ($currency === null) {
                $errors['currency.iso'][] = 'The selected currency.iso is invalid.';
            }
        }
    }

    // callback_url
    $callback = $body['callback_url'] ?? null;
    if ($callback !== null) {
        if (!is_string($callback) || trim($callback) === '') {
            $errors['callback_url'][] = 'The callback_url field must be a valid URL.';
        } else {
            $callback = trim($callback);
            $scheme = strtolower((string) parse_url($callback, PHP_URL_SCHEME));
            if (filter_var($callback, FILTER_VALIDATE_URL) === false || !in_array($scheme, ['http', 'https'], true)) {
                $errors['callback_url'][] = 'The callback_url field must be a valid URL.';
            } elseif (defect('drop-callback-query')) {
                $callback = explode('?', $callback, 2)[0];
            }
        }
    }

    // custom_metadata
    $metadata = $body['custom_metadata'] ?? null;
    if ($metadata !== null && !is_json_object($metadata)) {
        $errors['custom_metadata'][] = 'The custom_metadata field must be an object.';
    }

    // mode
    $mode = $body['mode'] ?? null;
    if ($mode !== null) {
        if (!is_string($mode) || trim($mode) === '') {
            $errors['mode'][] = 'The mode field must be a string.';
        } else {
            $mode = strtolower(trim($mode));
            if ($currency !== null && !in_array($mode, json_decode($currency['modes'], true), true)) {
                $errors['mode'][] = 'The selected mode is invalid.';
            }
        }
    }

    // customer
    $customerId = null;
    $newCustomer = null;
    $customer = $body['customer'] ?? null;
    if ($customer !== null) {
        if (!is_json_object($customer)) {
            $errors['customer'][] = 'The customer field must be an object.';
        } elseif (array_key_exists('id', $customer) && $customer['id'] !== null) {
            if (!is_int($customer['id'])) {
                $errors['customer.id'][] = 'The customer.id field must be an integer.';
            } else {
                $stmt = db()->prepare('SELECT id FROM customers WHERE id = ? AND account_id = ?');
                $stmt->execute([$customer['id'], $accountId]);
                if ($stmt->fetchColumn() === false) {
                    $errors['customer.id'][] = 'The selected customer.id is invalid.';
                } else {
                    $customerId = $customer['id'];
                }
            }
        } else {
            $email = $customer['email'] ?? null;
            if (!is_string($email) || trim($email) === '') {
                $errors['customer.email'][] = 'The customer.email field is required when customer.id is not present.';
            } elseif (filter_var(trim($email), FILTER_VALIDATE_EMAIL) === false) {
                $errors['customer.email'][] = 'The customer.email field must be a valid email address.';
            }
            foreach (['firstname', 'lastname'] as $f) {
                if (isset($customer[$f]) && !is_string($customer[$f])) {
                    $errors['customer.' . $f][] = 'The customer.' . $f . ' field must be a string.';
                }
            }
            $phone = validate_phone($customer['phone_number'] ?? null, 'customer.phone_number', $errors);
            $newCustomer = [
                'email' => is_string($email) ? strtolower(trim($email)) : null,
                'firstname' => isset($customer['firstname']) && is_string($customer['firstname']) ? trim($customer['firstname']) : null,
                'lastname' => isset($customer['lastname']) && is_string($customer['lastname']) ? trim($customer['lastname']) : null,
                'phone_number' => $phone[0] ?? null,
                'phone_country' => $phone[1] ?? null,
            ];
        }
    }

    if ($errors) {
        throw new HttpError(422, 'The given data was invalid.', $errors);
    }

    if (defect('amount-plus-one')) {
        $amount += 1;
    }

    $pdo = db();
    $ts = now();
    $pdo->exec('BEGIN IMMEDIATE');
    try {
        if ($newCustomer !== null) {
            $stmt = $pdo->prepare('SELECT * FROM customers WHERE account_id = ? AND email = ?');
            $stmt->execute([$accountId, $newCustomer['email']]);
            $existing = $stmt->fetch();
            if ($existing) {
                $customerId = (int) $existing['id'];
                $pdo->prepare('UPDATE customers SET firstname = COALESCE(?, firstname), lastname = COALESCE(?, lastname),
                    phone_number = COALESCE(?, phone_number), phone_country = COALESCE(?, phone_country), updated_at = ? WHERE id = ?')
                    ->execute([$newCustomer['firstname'], $newCustomer['lastname'], $newCustomer['phone_number'],
                        $newCustomer['phone_country'], $ts, $customerId]);
            } else {
                $pdo->prepare('INSERT INTO customers (account_id, email, firstname, lastname, phone_number, phone_country, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
                    ->execute([$accountId, $newCustomer['email'], $newCustomer['firstname'], $newCustomer['lastname'],
                        $newCustomer['phone_number'], $newCustomer['phone_country'], $ts, $ts]);
                $customerId = (int) $pdo->lastInsertId();
            }
        }
        $pdo->prepare('INSERT INTO transactions (account_id, reference, amount, description, callback_url, custom_metadata,
            currency_id, customer_id, mode, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
            ->execute([$accountId, random_ref('TXN-'), $amount, $description, $callback,
                $metadata === null ? null : json_encode((object) $metadata, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
                (int) $currency['id'], $customerId, $mode, 'pending', $ts, $ts]);
        $id = (int) $pdo->lastInsertId();
        $pdo->exec('COMMIT');
    } catch (Throwable $e) {
        $pdo->exec('ROLLBACK');
        throw $e;
    }

    $stmt = $pdo->prepare('SELECT * FROM transactions WHERE id = ?');
    $stmt->execute([$id]);
    header('Location: /v1/transactions/' . $id);
    send_json(201, transaction_out($stmt->fetch()));
}

function transaction_token(int $accountId, string $id): void
{
    $pdo = db();
    $pdo->exec('BEGIN IMMEDIATE');
    try {
        $stmt = $pdo->prepare('SELECT * FROM transactions WHERE id = ? AND account_id = ?');
        $stmt->execute([(int) $id, $accountId]);
        $t = $stmt->fetch();
        if (!$t) {
            throw new HttpError(404, 'Transaction not found.');
        }
        if ($t['status'] !== 'pending') {
            throw new HttpError(409, 'Transaction is not pending.');
        }
        $token = $t['token'];
        if ($token === null) {
            $token = bin2hex(random_bytes(16));
            $pdo->prepare('UPDATE transactions SET token = ?, updated_at = ? WHERE id = ?')->execute([$token, now(), $t['id']]);
        }
        $pdo->exec('COMMIT');
    } catch (Throwable $e) {
        $pdo->exec('ROLLBACK');
        throw $e;
    }
    $scheme = 'http';
    $host = $_SERVER['HTTP_HOST'] ?? ('127.0.0.1:' . ($_SERVER['SERVER_PORT'] ?? '80'));
    send_json(200, [
        'token' => $token,
        'url' => $scheme . '://' . $host . '/pay/' . $token,
    ]);
}

function send_transaction(int $accountId, string $mode): void
{
    $body = json_body();
    $errors = [];
    $mode = strtolower($mode);

    $token = $body['token'] ?? null;
    if (is_int($token)) {
        $token = (string) $token;
    }
    if ($token === null || (is_string($token) && trim($token) === '')) {
        $errors['token'][] = 'The token field is required.';
    } elseif (!is_string($token)) {
        $errors['token'][] = 'The token field must be a string.';
    }
    $phone = validate_phone($body['phone_number'] ?? null, 'phone_number', $errors);
    if ($errors) {
        throw new HttpError(422, 'The given data was invalid.', $errors);
    }

    $pdo = db();
    $pdo->exec('BEGIN IMMEDIATE');
    try {
        $stmt = $pdo->prepare('SELECT * FROM transactions WHERE token = ? AND account_id = ?');
        $stmt->execute([trim($token), $accountId]);
        $t = $stmt->fetch();
        if (!$t) {
            throw new HttpError(404, 'Transaction not found for this token.');
        }
        $currency = currency_by_id($accountId, (int) $t['currency_id']);
        $modes = $currency ? json_decode($currency['modes'], true) : [];
        if (!in_array($mode, $modes, true)) {
            throw new HttpError(422, 'The given data was invalid.', ['mode' => ['The selected mode is not available for this currency.']]);
        }
        if ($t['status'] !== 'pending') {
            throw new HttpError(409, 'Transaction is not pending.');
        }
        $ts = now();
        $pdo->prepare('INSERT INTO payment_intents (account_id, transaction_id, reference, amount, status, currency_id, mode,
            phone_number, phone_country, last_error_code, payment_method_id, transaction_key, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)')
            ->execute([$accountId, $t['id'], random_ref('PI-'), (int) $t['amount'], 'pending', (int) $t['currency_id'], $mode,
                $phone[0] ?? null, $phone[1] ?? null, bin2hex(random_bytes(16)), $ts, $ts]);
        $pid = (int) $pdo->lastInsertId();
        $pdo->prepare('UPDATE transactions SET mode = ?, updated_at = ? WHERE id = ?')->execute([$mode, $ts, $t['id']]);
        $pdo->exec('COMMIT');
    } catch (Throwable $e) {
        $pdo->exec('ROLLBACK');
        throw $e;
    }
    $stmt = $pdo->prepare('SELECT * FROM payment_intents WHERE id = ?');
    $stmt->execute([$pid]);
    send_json(200, [intent_out($stmt->fetch())]);
}

function get_balance(int $accountId, string $id): void
{
    $stmt = db()->prepare('SELECT * FROM balances WHERE id = ? AND account_id = ?');
    $stmt->execute([(int) $id, $accountId]);
    $b = $stmt->fetch();
    if (!$b) {
        throw new HttpError(404, 'Balance not found.');
    }
    send_json(200, [balance_out($b)]);
}

function get_currency(int $accountId, string $id): void
{
    $c = currency_by_id($accountId, (int) $id);
    if (!$c) {
        throw new HttpError(404, 'Currency not found.');
    }
    send_json(200, [currency_out($c)]);
}

/** Minimal HTML page behind the payment link (sandbox only, no payment happens here). */
function payment_page(string $token): void
{
    $stmt = db()->prepare('SELECT t.*, c.iso FROM transactions t JOIN currencies c ON c.id = t.currency_id WHERE t.token = ?');
    $stmt->execute([$token]);
    $t = $stmt->fetch();
    if (!$t) {
        throw new HttpError(404, 'Payment link not found.');
    }
    header('Content-Type: text/html; charset=utf-8');
    $h = fn($v) => htmlspecialchars((string) $v, ENT_QUOTES);
    echo '<!doctype html><title>Sandbox payment</title><h1>Sandbox payment</h1>'
        . '<p>Transaction ' . $h($t['reference']) . ': ' . $h($t['amount']) . ' ' . $h($t['iso']) . '</p>'
        . '<p>' . $h($t['description']) . '</p><p>Status: ' . $h($t['status']) . '</p>';
}

/* ---------- routing ---------- */

function route(): void
{
    $method = strtoupper($_SERVER['REQUEST_METHOD'] ?? 'GET');
    $path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH) ?: '/';
    $path = rtrim(rawurldecode($path), '/');

    if ($method === 'GET' && preg_match('#^/pay/([0-9a-f]+)$#', $path, $pm)) {
        payment_page($pm[1]);
        return;
    }
    if (!preg_match('#^/v1(/.*)?$#', $path, $m)) {
        throw new HttpError(404, 'Not found.');
    }
    $accountId = authenticate();
    $sub = $m[1] ?? '';

    $routes = [
        ['DELETE', '#^/customers/([^/]+)$#', 'delete_customer', true],
        ['POST', '#^/transactions$#', 'create_transaction', false],
        ['POST', '#^/transactions/([^/]+)/token$#', 'transaction_token', true],
        ['POST', '#^/transactions/([^/]+)$#', 'send_transaction', false],
        ['GET', '#^/balances/([^/]+)$#', 'get_balance', true],
        ['GET', '#^/currencies/([^/]+)$#', 'get_currency', true],
    ];
    $allowed = [];
    foreach ($routes as [$verb, $regex, $handler, $numericId]) {
        if (!preg_match($regex, $sub, $pm)) {
            continue;
        }
        if ($verb !== $method) {
            $allowed[] = $verb;
            continue;
        }
        $args = array_slice($pm, 1);
        if ($numericId && !ctype_digit($args[0])) {
            throw new HttpError(404, 'Not found.');
        }
        $handler($accountId, ...$args);
        return;
    }
    if ($allowed) {
        header('Allow: ' . implode(', ', array_unique($allowed)));
        throw new HttpError(405, 'Method not allowed.');
    }
    throw new HttpError(404, 'Not found.');
}

try {
    route();
} catch (HttpError $e) {
    $out = ['message' => $e->getMessage()];
    if ($e->errors !== null) {
        $out['errors'] = $e->errors;
    }
    send_json($e->status, $out);
} catch (Throwable $e) {
    error_log('Unhandled error: ' . $e);
    send_json(500, ['message' => 'Internal server error.']);
}
return true;
