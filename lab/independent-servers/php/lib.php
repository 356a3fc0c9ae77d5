<?php
declare(strict_types=1);

date_default_timezone_set('UTC');

function db_path(): string
{
    $p = getenv('DB_PATH');
    if ($p === false || $p === '') {
        $p = sys_get_temp_dir() . '/independent_php_sandbox.sqlite';
    }
    return $p;
}

function db(): PDO
{
    static $pdo = null;
    if ($pdo === null) {
        $pdo = new PDO('sqlite:' . db_path(), null, null, [
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
            PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC,
            PDO::ATTR_TIMEOUT => 30,
        ]);
        $pdo->exec('PRAGMA busy_timeout = 30000');
        $pdo->exec('PRAGMA foreign_keys = ON');
    }
    return $pdo;
}

function now(): string
{
    return date('c');
}

function init_db(): void
{
    $pdo = db();
    $pdo->exec('PRAGMA journal_mode = WAL');
    $pdo->exec('PRAGMA synchronous = NORMAL');
    $pdo->exec(<<<SQL
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    secret_key TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS currencies (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    iso TEXT NOT NULL,
    name TEXT NOT NULL,
    modes TEXT NOT NULL,
    prefix TEXT,
    suffix TEXT,
    is_default INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS balances (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    amount INTEGER NOT NULL DEFAULT 0,
    mode TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS customers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    email TEXT,
    firstname TEXT,
    lastname TEXT,
    phone_number TEXT,
    phone_country TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    reference TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL,
    description TEXT,
    callback_url TEXT,
    custom_metadata TEXT,
    currency_id INTEGER NOT NULL,
    customer_id INTEGER,
    mode TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    token TEXT UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS payment_intents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    transaction_id INTEGER NOT NULL REFERENCES transactions(id),
    reference TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL,
    status TEXT NOT NULL,
    currency_id INTEGER NOT NULL,
    mode TEXT NOT NULL,
    phone_number TEXT,
    phone_country TEXT,
    last_error_code TEXT,
    payment_method_id INTEGER,
    transaction_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    approved_at TEXT,
    canceled_at TEXT,
    deleted_at TEXT
);
SQL);

    $key1 = getenv('SECRET_KEY') ?: 'sk_sandbox_independent_php_0001';
    $key2 = getenv('SECOND_SECRET_KEY') ?: 'sk_sandbox_independent_php_0002';
    $ts = now();
    $pdo->beginTransaction();
    $pdo->prepare('INSERT OR REPLACE INTO accounts (id, secret_key) VALUES (1, ?), (2, ?)')->execute([$key1, $key2]);
    $modes = json_encode(['mtn', 'moov']);
    $cur = $pdo->prepare('INSERT OR IGNORE INTO currencies (id, account_id, iso, name, modes, prefix, suffix, is_default, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)');
    $bal = $pdo->prepare('INSERT OR IGNORE INTO balances (id, account_id, amount, mode, created_at, updated_at) VALUES (?, ?, 0, ?, ?, ?)');
    foreach ([1, 2] as $acc) {
        $cur->execute([$acc, $acc, 'XOF', 'XOF', $modes, '', ' F CFA', $ts, $ts]);
        $bal->execute([$acc, $acc, 'sandbox', $ts, $ts]);
    }
    $pdo->commit();
}
