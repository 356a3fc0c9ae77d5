<?php
// Creates the schema and seed data in a fresh SQLite database.
// Usage: php init.php /path/to/database.sqlite
declare(strict_types=1);

$path = $argv[1] ?? '';
if ($path === '') {
    fwrite(STDERR, "usage: php init.php DB_PATH\n");
    exit(1);
}

$pdo = new PDO('sqlite:' . $path, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$pdo->exec('PRAGMA journal_mode = WAL');
$pdo->exec('PRAGMA busy_timeout = 5000');

$pdo->exec(<<<SQL
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE balances (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    amount INTEGER NOT NULL DEFAULT 0,
    mode TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE currencies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    iso TEXT NOT NULL,
    modes TEXT NOT NULL,
    prefix TEXT NULL,
    suffix TEXT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE customers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    email TEXT NULL,
    firstname TEXT NULL,
    lastname TEXT NULL,
    phone_number TEXT NULL,
    phone_country TEXT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT NULL
);
CREATE INDEX customers_account_email ON customers(account_id, email);
CREATE TABLE transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    reference TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL,
    description TEXT NULL,
    callback_url TEXT NULL,
    status TEXT NOT NULL,
    mode TEXT NULL,
    currency_id INTEGER NOT NULL REFERENCES currencies(id),
    customer_id INTEGER NULL REFERENCES customers(id),
    custom_metadata TEXT NULL,
    token TEXT NULL UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE payment_methods (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    mode TEXT NOT NULL,
    number TEXT NOT NULL,
    country TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (account_id, mode, number, country)
);
CREATE TABLE payment_intents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    transaction_id INTEGER NOT NULL REFERENCES transactions(id),
    reference TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL,
    status TEXT NOT NULL,
    currency_id INTEGER NOT NULL,
    mode TEXT NOT NULL,
    last_error_code TEXT NULL,
    payment_method_id INTEGER NULL REFERENCES payment_methods(id),
    transaction_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    approved_at TEXT NULL,
    canceled_at TEXT NULL,
    deleted_at TEXT NULL
);
SQL);

$now = (new DateTimeImmutable('now', new DateTimeZone('UTC')))->format('Y-m-d\TH:i:s.u\Z');
$modes = json_encode(['mtn', 'moov']);

foreach ([1, 2] as $n) {
    $pdo->prepare('INSERT INTO accounts (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)')
        ->execute([$n, 'Sandbox account ' . $n, $now, $now]);
    $pdo->prepare('INSERT INTO balances (id, account_id, amount, mode, created_at, updated_at) VALUES (?, ?, 0, ?, ?, ?)')
        ->execute([$n, $n, 'mtn', $now, $now]);
    $pdo->prepare('INSERT INTO currencies (id, account_id, name, iso, modes, prefix, suffix, is_default, created_at, updated_at)
                   VALUES (?, ?, ?, ?, ?, NULL, ?, 1, ?, ?)')
        ->execute([$n, $n, 'FCFA', 'XOF', $modes, 'F CFA', $now, $now]);
}
