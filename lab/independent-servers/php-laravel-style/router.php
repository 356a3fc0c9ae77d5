<?php
// Router script for PHP's built-in server: `php -S 127.0.0.1:$PORT router.php`.
// Plain PHP 8.2, PDO SQLite. See README.md for the behaviour and choices.
declare(strict_types=1);

const JSON_FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE;

final class HttpResponse extends Exception
{
    public function __construct(public int $status, public mixed $payload = null, public array $headers = [])
    {
        parent::__construct('http ' . $status);
    }
}

function send_json(int $status, mixed $payload, array $headers = []): void
{
    http_response_code($status);
    foreach ($headers as $name => $value) {
        header($name . ': ' . $value);
    }
    if ($status === 204) {
        header_remove('Content-Type');
        return;
    }
    header('Content-Type: application/json');
    $body = json_encode($payload, JSON_FLAGS | JSON_PRESERVE_ZERO_FRACTION);
    if ($body === false) {
        $body = json_encode(['message' => 'Server Error'], JSON_FLAGS);
    }
    if (($_SERVER['REQUEST_METHOD'] ?? 'GET') !== 'HEAD') {
        echo $body;
    }
}

function abort(int $status, ?string $message = null, array $headers = []): never
{
    $defaults = [
        400 => 'Malformed JSON body.',
        401 => 'Unauthenticated.',
        404 => 'Not Found',
        405 => 'Method Not Allowed',
        500 => 'Server Error',
    ];
    throw new HttpResponse($status, ['message' => $message ?? ($defaults[$status] ?? 'Error')], $headers);
}

function now_ts(): string
{
    return (new DateTimeImmutable('now', new DateTimeZone('UTC')))->format('Y-m-d\TH:i:s.u\Z');
}

function defect(): string
{
    return (string) (getenv('DEFECT') ?: '');
}

function db(): PDO
{
    static $pdo = null;
    if ($pdo === null) {
        $path = getenv('DB_PATH');
        if ($path === false || $path === '') {
            throw new RuntimeException('DB_PATH is not set');
        }
        $pdo = new PDO('sqlite:' . $path, null, null, [
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
            PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC,
            PDO::ATTR_TIMEOUT => 10,
        ]);
        $pdo->exec('PRAGMA busy_timeout = 10000');
        $pdo->exec('PRAGMA journal_mode = WAL');
        $pdo->exec('PRAGMA foreign_keys = ON');
    }
    return $pdo;
}

/** Runs $fn inside BEGIN IMMEDIATE (write lock taken up front, so the busy timeout applies). */
function write_tx(callable $fn): mixed
{
    $pdo = db();
    $pdo->exec('BEGIN IMMEDIATE');
    try {
        $result = $fn($pdo);
        $pdo->exec('COMMIT');
        return $result;
    } catch (Throwable $e) {
        try {
            $pdo->exec('ROLLBACK');
        } catch (Throwable) {
        }
        throw $e;
    }
}

function query_one(string $sql, array $params): ?array
{
    $stmt = db()->prepare($sql);
    $stmt->execute($params);
    $row = $stmt->fetch();
    return $row === false ? null : $row;
}

// ---------------------------------------------------------------- auth

function request_headers(): array
{
    $headers = [];
    if (function_exists('getallheaders')) {
        foreach (getallheaders() as $k => $v) {
            $headers[strtolower((string) $k)] = (string) $v;
        }
    }
    if (!isset($headers['authorization'])) {
        if (isset($_SERVER['HTTP_AUTHORIZATION'])) {
            $headers['authorization'] = (string) $_SERVER['HTTP_AUTHORIZATION'];
        } elseif (isset($_SERVER['REDIRECT_HTTP_AUTHORIZATION'])) {
            $headers['authorization'] = (string) $_SERVER['REDIRECT_HTTP_AUTHORIZATION'];
        }
    }
    return $headers;
}

function authenticate(): int
{
    $keys = [
        1 => (string) (getenv('SECRET_KEY') ?: 'sk_sandbox_independent_phplv_0001'),
        2 => (string) (getenv('SECOND_SECRET_KEY') ?: 'sk_sandbox_independent_phplv_0002'),
    ];
    $headers = request_headers();
    if (!array_key_exists('authorization', $headers)) {
        if (defect() === 'no-auth') {
            return 1;
        }
        abort(401);
    }
    if (!preg_match('/^\s*Bearer\s+(\S+)\s*$/i', $headers['authorization'], $m)) {
        abort(401);
    }
    $token = $m[1];
    foreach ($keys as $accountId => $key) {
        if ($key !== '' && hash_equals($key, $token)) {
            return $accountId;
        }
    }
    abort(401);
}

// ---------------------------------------------------------------- request body

/** TrimStrings + ConvertEmptyStringsToNull, recursively. */
function clean_input(mixed $value): mixed
{
    if (is_string($value)) {
        $value = trim($value);
        return $value === '' ? null : $value;
    }
    if (is_array($value)) {
        foreach ($value as $k => $v) {
            $value[$k] = clean_input($v);
        }
    }
    return $value;
}

function json_body(): array
{
    $raw = file_get_contents('php://input');
    if ($raw === false || trim($raw) === '') {
        return [];
    }
    try {
        $data = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
    } catch (JsonException) {
        abort(400);
    }
    if (!is_array($data)) {
        // Valid JSON that is not an object/array (e.g. 5, "x", null): no fields given.
        return [];
    }
    return clean_input($data);
}

// ---------------------------------------------------------------- validation helpers

final class Validator
{
    /** @var array<string, list<string>> */
    public array $errors = [];

    public function add(string $field, string $message): void
    {
        $this->errors[$field][] = $message;
    }

    public function has(string $field): bool
    {
        return isset($this->errors[$field]);
    }

    public static function label(string $field): string
    {
        return str_replace('_', ' ', $field);
    }

    public function required(string $field): void
    {
        $this->add($field, 'The ' . self::label($field) . ' field is required.');
    }

    public function fail(string $field, string $rule, array $params = []): void
    {
        $l = self::label($field);
        $msg = match ($rule) {
            'integer' => "The $l field must be an integer.",
            'min' => "The $l field must be at least {$params[0]}.",
            'string' => "The $l field must be a string.",
            'max' => "The $l field must not be greater than {$params[0]} characters.",
            'size' => "The $l field must be {$params[0]} characters.",
            'url' => "The $l field must be a valid URL.",
            'array' => "The $l field must be an array.",
            'email' => "The $l field must be a valid email address.",
            'alpha' => "The $l field must only contain letters.",
            'format' => "The $l field format is invalid.",
            'invalid' => "The selected $l is invalid.",
            'required_without' => "The $l field is required when " . self::label($params[0]) . ' is not present.',
            'required_with' => "The $l field is required when " . self::label($params[0]) . ' is present.',
            default => "The $l field is invalid.",
        };
        $this->add($field, $msg);
    }

    public function throwIfFailed(): void
    {
        if ($this->errors === []) {
            return;
        }
        $first = reset($this->errors)[0];
        $count = 0;
        foreach ($this->errors as $list) {
            $count += count($list);
        }
        $message = $first;
        if ($count > 1) {
            $more = $count - 1;
            $message .= " (and $more more " . ($more === 1 ? 'error' : 'errors') . ')';
        }
        throw new HttpResponse(422, ['message' => $message, 'errors' => $this->errors]);
    }
}

function str_length(string $s): int
{
    $n = preg_match_all('/./su', $s);
    return $n === false ? strlen($s) : $n;
}

/** Laravel "integer": a JSON integer or a string that FILTER_VALIDATE_INT accepts (digits, optional sign). */
function as_integer(mixed $v): ?int
{
    if (is_int($v)) {
        return $v;
    }
    if (is_string($v) && preg_match('/^[+-]?[0-9]+$/', $v)) {
        $r = filter_var($v, FILTER_VALIDATE_INT);
        return $r === false ? null : $r;
    }
    return null;
}

function valid_url(string $v): bool
{
    if (filter_var($v, FILTER_VALIDATE_URL) === false) {
        return false;
    }
    $scheme = strtolower((string) parse_url($v, PHP_URL_SCHEME));
    $host = parse_url($v, PHP_URL_HOST);
    return in_array($scheme, ['http', 'https'], true) && is_string($host) && $host !== '';
}

/** Validates a nullable string field with a max length. */
function check_string(Validator $v, array $data, string $key, string $field, int $max = 255): void
{
    if (!isset($data[$key])) {
        return;
    }
    if (!is_string($data[$key])) {
        $v->fail($field, 'string');
    } elseif (str_length($data[$key]) > $max) {
        $v->fail($field, 'max', [$max]);
    }
}

/** Phone number object: number (string or integer) and country (two letters). Returns normalised or null. */
function check_phone(Validator $v, mixed $phone, string $prefix): ?array
{
    if ($phone === null || $phone === []) {
        return null;
    }
    if (!is_array($phone)) {
        $v->fail($prefix, 'array');
        return null;
    }
    $number = $phone['number'] ?? null;
    $country = $phone['country'] ?? null;
    $ok = true;
    if ($number === null) {
        $v->fail($prefix . '.number', 'required_with', [$prefix]);
        $ok = false;
    } else {
        if (is_int($number)) {
            $number = (string) $number;
        }
        if (!is_string($number)) {
            $v->fail($prefix . '.number', 'string');
            $ok = false;
        } elseif (!preg_match('/^\+?[0-9]{6,15}$/', $number)) {
            $v->fail($prefix . '.number', 'format');
            $ok = false;
        }
    }
    if ($country === null) {
        $v->fail($prefix . '.country', 'required_with', [$prefix]);
        $ok = false;
    } elseif (!is_string($country)) {
        $v->fail($prefix . '.country', 'string');
        $ok = false;
    } elseif (strlen($country) !== 2 || !ctype_alpha($country)) {
        $v->fail($prefix . '.country', strlen($country) !== 2 ? 'size' : 'alpha', [2]);
        $ok = false;
    }
    return $ok ? ['number' => $number, 'country' => strtoupper($country)] : null;
}

// ---------------------------------------------------------------- serialisers

function ser_transaction(array $t): array
{
    return [
        'id' => (int) $t['id'],
        'reference' => $t['reference'],
        'amount' => (int) $t['amount'],
        'description' => $t['description'],
        'callback_url' => $t['callback_url'],
        'status' => $t['status'],
        'mode' => $t['mode'],
        'currency_id' => (int) $t['currency_id'],
        'customer_id' => $t['customer_id'] === null ? null : (int) $t['customer_id'],
        'custom_metadata' => $t['custom_metadata'] === null ? null : json_decode($t['custom_metadata'], true),
        'account_id' => (int) $t['account_id'],
        'created_at' => $t['created_at'],
        'updated_at' => $t['updated_at'],
    ];
}

function ser_intent(array $p): array
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
        'transaction_id' => (int) $p['transaction_id'],
        'account_id' => (int) $p['account_id'],
    ];
}

function ser_balance(array $b): array
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

function ser_currency(array $c): array
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

function random_hex(int $bytes): string
{
    return bin2hex(random_bytes($bytes));
}

function uuid4(): string
{
    $b = random_bytes(16);
    $b[6] = chr((ord($b[6]) & 0x0f) | 0x40);
    $b[8] = chr((ord($b[8]) & 0x3f) | 0x80);
    return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
}

function request_host(): string
{
    $host = (string) ($_SERVER['HTTP_HOST'] ?? '');
    if ($host === '' || !preg_match('/^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/', $host)) {
        $host = ($_SERVER['SERVER_NAME'] ?? '127.0.0.1') . ':' . ($_SERVER['SERVER_PORT'] ?? '80');
    }
    return $host;
}

// ---------------------------------------------------------------- handlers

function delete_customer(int $accountId, ?int $id): array
{
    $deleted = $id === null ? false : write_tx(function (PDO $pdo) use ($accountId, $id) {
        $stmt = $pdo->prepare('UPDATE customers SET deleted_at = ?, updated_at = ? WHERE id = ? AND account_id = ? AND deleted_at IS NULL');
        $now = now_ts();
        $stmt->execute([$now, $now, $id, $accountId]);
        return $stmt->rowCount() > 0;
    });
    if (!$deleted) {
        if (defect() === 'delete-500') {
            abort(500);
        }
        abort(404);
    }
    return [204, null];
}

function create_transaction(int $accountId): array
{
    $data = json_body();
    $v = new Validator();

    // description: nullable|string|max:255
    check_string($v, $data, 'description', 'description');

    // amount: required|integer|min:1
    $amount = null;
    if (!isset($data['amount'])) {
        $v->required('amount');
    } else {
        $amount = as_integer($data['amount']);
        if ($amount === null) {
            $v->fail('amount', 'integer');
        } elseif ($amount < 1) {
            $v->fail('amount', 'min', [1]);
            $amount = null;
        }
    }

    // currency: required|array ; currency.iso: required|string|size:3 (+ must be one of the account's currencies)
    $currency = null;
    $currencyData = $data['currency'] ?? null;
    if ($currencyData === null) {
        $v->required('currency');
    } elseif (!is_array($currencyData)) {
        $v->fail('currency', 'array');
    }
    $iso = is_array($currencyData) ? ($currencyData['iso'] ?? null) : null;
    if ($iso === null) {
        $v->required('currency.iso');
    } elseif (!is_string($iso)) {
        $v->fail('currency.iso', 'string');
    } elseif (strlen($iso) !== 3) {
        $v->fail('currency.iso', 'size', [3]);
    } else {
        $currency = query_one('SELECT * FROM currencies WHERE account_id = ? AND iso = ?', [$accountId, strtoupper($iso)]);
        if ($currency === null) {
            $v->fail('currency.iso', 'invalid');
        }
    }

    // callback_url: nullable|url
    $callbackUrl = $data['callback_url'] ?? null;
    if ($callbackUrl !== null && (!is_string($callbackUrl) || !valid_url($callbackUrl))) {
        $v->fail('callback_url', 'url');
    }

    // custom_metadata: nullable|array
    $metadata = $data['custom_metadata'] ?? null;
    if ($metadata !== null && !is_array($metadata)) {
        $v->fail('custom_metadata', 'array');
    }

    // mode: nullable|string, one of the currency's modes
    $mode = $data['mode'] ?? null;
    if ($mode !== null) {
        if (!is_string($mode)) {
            $v->fail('mode', 'string');
        } else {
            $mode = strtolower($mode);
            if ($currency !== null && !in_array($mode, json_decode($currency['modes'], true), true)) {
                $v->fail('mode', 'invalid');
            }
        }
    }

    // customer: nullable|array with id (existing) or email (new / matched by email)
    $customerData = $data['customer'] ?? null;
    $customerId = null;
    $newCustomer = null;
    if ($customerData !== null && $customerData !== []) {
        if (!is_array($customerData)) {
            $v->fail('customer', 'array');
        } else {
            $cid = $customerData['id'] ?? null;
            if ($cid !== null) {
                $cidInt = as_integer($cid);
                if ($cidInt === null) {
                    $v->fail('customer.id', 'integer');
                } else {
                    $row = query_one('SELECT id FROM customers WHERE id = ? AND account_id = ? AND deleted_at IS NULL', [$cidInt, $accountId]);
                    if ($row === null) {
                        $v->fail('customer.id', 'invalid');
                    } else {
                        $customerId = (int) $row['id'];
                    }
                }
            }
            $email = $customerData['email'] ?? null;
            if ($email === null) {
                if ($cid === null) {
                    $v->fail('customer.email', 'required_without', ['customer.id']);
                }
            } elseif (!is_string($email)) {
                $v->fail('customer.email', 'string');
            } elseif (str_length($email) > 255) {
                $v->fail('customer.email', 'max', [255]);
            } elseif (filter_var($email, FILTER_VALIDATE_EMAIL) === false) {
                $v->fail('customer.email', 'email');
            }
            check_string($v, $customerData, 'firstname', 'customer.firstname');
            check_string($v, $customerData, 'lastname', 'customer.lastname');
            $phone = check_phone($v, $customerData['phone_number'] ?? null, 'customer.phone_number');
            if ($cid === null) {
                $newCustomer = [
                    'email' => is_string($email) ? $email : null,
                    'firstname' => $customerData['firstname'] ?? null,
                    'lastname' => $customerData['lastname'] ?? null,
                    'phone' => $phone,
                ];
            }
        }
    }

    $v->throwIfFailed();

    if (defect() === 'amount-plus-one') {
        $amount += 1;
    }
    if ($callbackUrl !== null && defect() === 'drop-callback-query') {
        $callbackUrl = preg_replace('/\?[^#]*/', '', $callbackUrl, 1);
    }

    $row = write_tx(function (PDO $pdo) use ($accountId, $data, $amount, $currency, $callbackUrl, $metadata, $mode, $customerId, $newCustomer) {
        $now = now_ts();
        if ($newCustomer !== null) {
            $stmt = $pdo->prepare('SELECT id FROM customers WHERE account_id = ? AND lower(email) = lower(?) AND deleted_at IS NULL ORDER BY id LIMIT 1');
            $stmt->execute([$accountId, $newCustomer['email']]);
            $existing = $stmt->fetch();
            if ($existing !== false) {
                $customerId = (int) $existing['id'];
            } else {
                $pdo->prepare('INSERT INTO customers (account_id, email, firstname, lastname, phone_number, phone_country, created_at, updated_at)
                               VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
                    ->execute([
                        $accountId, $newCustomer['email'], $newCustomer['firstname'], $newCustomer['lastname'],
                        $newCustomer['phone']['number'] ?? null, $newCustomer['phone']['country'] ?? null, $now, $now,
                    ]);
                $customerId = (int) $pdo->lastInsertId();
            }
        }
        $reference = 'trx_' . random_hex(8);
        $pdo->prepare('INSERT INTO transactions (account_id, reference, amount, description, callback_url, status, mode, currency_id,
                                                 customer_id, custom_metadata, token, created_at, updated_at)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)')
            ->execute([
                $accountId, $reference, $amount, $data['description'] ?? null, $callbackUrl, 'pending', $mode,
                (int) $currency['id'], $customerId,
                $metadata === null ? null : json_encode($metadata, JSON_FLAGS | JSON_PRESERVE_ZERO_FRACTION),
                $now, $now,
            ]);
        $id = (int) $pdo->lastInsertId();
        $stmt = $pdo->prepare('SELECT * FROM transactions WHERE id = ?');
        $stmt->execute([$id]);
        return $stmt->fetch();
    });

    return [201, ser_transaction($row)];
}

function transaction_token(int $accountId, ?int $id): array
{
    if ($id === null) {
        abort(404);
    }
    $token = write_tx(function (PDO $pdo) use ($accountId, $id) {
        $stmt = $pdo->prepare('SELECT id, token FROM transactions WHERE id = ? AND account_id = ?');
        $stmt->execute([$id, $accountId]);
        $t = $stmt->fetch();
        if ($t === false) {
            return null;
        }
        if ($t['token'] !== null) {
            return $t['token'];
        }
        $token = random_hex(20);
        $pdo->prepare('UPDATE transactions SET token = ? WHERE id = ?')->execute([$token, $id]);
        return $token;
    });
    if ($token === null) {
        abort(404);
    }
    return [200, ['token' => $token, 'url' => 'http://' . request_host() . '/checkout/' . $token]];
}

function send_transaction(int $accountId, string $modeParam): array
{
    $data = json_body();
    $v = new Validator();
    $mode = strtolower($modeParam);

    $transaction = null;
    $token = $data['token'] ?? null;
    if ($token === null) {
        $v->required('token');
    } else {
        if (is_int($token)) {
            $token = (string) $token;
        }
        if (!is_string($token)) {
            $v->fail('token', 'string');
        } else {
            $transaction = query_one('SELECT * FROM transactions WHERE token = ? AND account_id = ?', [$token, $accountId]);
            if ($transaction === null) {
                $v->fail('token', 'invalid');
            }
        }
    }

    $phone = check_phone($v, $data['phone_number'] ?? null, 'phone_number');

    if ($transaction !== null) {
        $currency = query_one('SELECT * FROM currencies WHERE id = ?', [$transaction['currency_id']]);
        $modes = $currency === null ? [] : json_decode($currency['modes'], true);
        if (!in_array($mode, $modes, true)) {
            $v->fail('mode', 'invalid');
        }
    } elseif (!preg_match('/^[a-z0-9_]{1,50}$/', $mode)) {
        $v->fail('mode', 'invalid');
    }

    $v->throwIfFailed();

    $intent = write_tx(function (PDO $pdo) use ($accountId, $transaction, $mode, $phone) {
        $now = now_ts();
        $paymentMethodId = null;
        if ($phone !== null) {
            $stmt = $pdo->prepare('SELECT id FROM payment_methods WHERE account_id = ? AND mode = ? AND number = ? AND country = ?');
            $stmt->execute([$accountId, $mode, $phone['number'], $phone['country']]);
            $pm = $stmt->fetch();
            if ($pm !== false) {
                $paymentMethodId = (int) $pm['id'];
            } else {
                $pdo->prepare('INSERT INTO payment_methods (account_id, mode, number, country, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
                    ->execute([$accountId, $mode, $phone['number'], $phone['country'], $now, $now]);
                $paymentMethodId = (int) $pdo->lastInsertId();
            }
        }
        $pdo->prepare('INSERT INTO payment_intents (account_id, transaction_id, reference, amount, status, currency_id, mode, last_error_code,
                                                    payment_method_id, transaction_key, created_at, updated_at, approved_at, canceled_at, deleted_at)
                       VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, NULL, NULL, NULL)')
            ->execute([
                $accountId, (int) $transaction['id'], 'pi_' . random_hex(10), (int) $transaction['amount'], 'pending',
                (int) $transaction['currency_id'], $mode, $paymentMethodId, uuid4(), $now, $now,
            ]);
        $stmt = $pdo->prepare('SELECT * FROM payment_intents WHERE id = ?');
        $stmt->execute([(int) $pdo->lastInsertId()]);
        return $stmt->fetch();
    });

    return [200, [ser_intent($intent)]];
}

function get_balance(int $accountId, ?int $id): array
{
    $row = $id === null ? null : query_one('SELECT * FROM balances WHERE id = ? AND account_id = ?', [$id, $accountId]);
    if ($row === null) {
        abort(404);
    }
    return [200, [ser_balance($row)]];
}

function get_currency(int $accountId, ?int $id): array
{
    $row = $id === null ? null : query_one('SELECT * FROM currencies WHERE id = ? AND account_id = ?', [$id, $accountId]);
    if ($row === null) {
        abort(404);
    }
    return [200, [ser_currency($row)]];
}

// ---------------------------------------------------------------- routing

/** Route id parameter: digits only (like whereNumber); out-of-range ids simply do not exist. */
function route_id(string $segment): ?int
{
    if (!preg_match('/^[0-9]{1,18}$/', $segment)) {
        return null;
    }
    return (int) $segment;
}

function dispatch(): array
{
    $method = strtoupper($_SERVER['REQUEST_METHOD'] ?? 'GET');
    if ($method === 'HEAD') {
        $method = 'GET';
    }
    $uri = (string) ($_SERVER['REQUEST_URI'] ?? '/');
    $path = explode('?', $uri, 2)[0];
    $path = '/' . trim($path, '/');
    $segments = array_map('rawurldecode', array_values(array_filter(explode('/', $path), fn ($s) => $s !== '')));

    if (count($segments) < 2 || $segments[0] !== 'v1') {
        abort(404);
    }
    $s = array_slice($segments, 1);
    $n = count($s);

    // [allowed method, handler]
    $route = null;
    if ($n === 2 && $s[0] === 'customers') {
        $route = ['DELETE', fn (int $a) => delete_customer($a, route_id($s[1]))];
    } elseif ($n === 1 && $s[0] === 'transactions') {
        $route = ['POST', fn (int $a) => create_transaction($a)];
    } elseif ($n === 3 && $s[0] === 'transactions' && $s[2] === 'token') {
        $route = ['POST', fn (int $a) => transaction_token($a, route_id($s[1]))];
    } elseif ($n === 2 && $s[0] === 'transactions') {
        $route = ['POST', fn (int $a) => send_transaction($a, $s[1])];
    } elseif ($n === 2 && $s[0] === 'balances') {
        $route = ['GET', fn (int $a) => get_balance($a, route_id($s[1]))];
    } elseif ($n === 2 && $s[0] === 'currencies') {
        $route = ['GET', fn (int $a) => get_currency($a, route_id($s[1]))];
    }

    if ($route === null) {
        abort(404);
    }
    if ($method !== $route[0]) {
        abort(405, null, ['Allow' => $route[0] === 'GET' ? 'GET, HEAD' : $route[0]]);
    }
    $accountId = authenticate();
    return ($route[1])($accountId);
}

try {
    [$status, $payload] = dispatch();
    send_json($status, $payload);
} catch (HttpResponse $r) {
    send_json($r->status, $r->payload, $r->headers);
} catch (Throwable $e) {
    error_log('[router] ' . get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
    send_json(500, ['message' => 'Server Error']);
}
return true;
