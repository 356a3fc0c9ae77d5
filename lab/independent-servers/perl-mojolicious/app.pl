#!/usr/bin/env perl
# Sandbox server for the Payment Collection Service API (v1).
# Mojolicious::Lite app, single-process daemon, in-memory store.
use Mojolicious::Lite -signatures;

use B          ();
use Mojo::Date;
use Mojo::JSON qw(true false);
use Mojo::URL;
use Mojo::UserAgent;
use Mojo::Util qw(secure_compare);

# ---------------------------------------------------------------------------
# Configuration (environment)
# ---------------------------------------------------------------------------
my $SECRET_KEY        = $ENV{SECRET_KEY}        // '';
my $SECOND_SECRET_KEY = $ENV{SECOND_SECRET_KEY} // '';
my $DEFECT            = $ENV{DEFECT}            // '';
my $CALLBACKS         = lc($ENV{CALLBACKS}      // 'off');
my $CALLBACKS_ON      = ($CALLBACKS ne '' && $CALLBACKS ne 'off') ? 1 : 0;

my %KNOWN_DEFECTS = map { $_ => 1 } qw(amount-plus-one no-auth delete-500 drop-callback-query);
app->log->warn("Unknown DEFECT '$DEFECT' ignored") if length $DEFECT && !$KNOWN_DEFECTS{$DEFECT};

app->secrets([Mojo::Util::sha1_sum(join '|', $$, time, rand)]);

# Largest amount / integer accepted in a request (JSON-safe integer range)
use constant MAX_INT => 9007199254740991;

# ---------------------------------------------------------------------------
# In-memory store
# ---------------------------------------------------------------------------
sub now_iso () { Mojo::Date->new(time)->to_datetime }

my $BOOT = now_iso();
my %store = (
  customers    => {},    # id => customer
  transactions => {},    # id => transaction
  tokens       => {},    # token => transaction id
  references   => {},    # reference => 1
  intents      => {},    # id => payment intent
  balances     => {},
  currencies   => {},
);
my %next_id = (customer => 1, transaction => 1, intent => 1, payment_method => 1);

my @MODES = qw(mtn moov mtn_ci moov_tg);

for my $acct (1, 2) {
  $store{currencies}{$acct} = {
    id         => $acct,
    name       => 'XOF',
    modes      => [@MODES],
    prefix     => '',
    suffix     => 'FCFA',
    account_id => $acct,
    created_at => $BOOT,
    updated_at => $BOOT,
    default    => true,
  };
  # balance 1/2: mode mtn ; balance 3/4: mode moov
  $store{balances}{$acct} = {
    id => $acct, amount => 0, mode => 'mtn', account_id => $acct,
    created_at => $BOOT, updated_at => $BOOT,
  };
  $store{balances}{$acct + 2} = {
    id => $acct + 2, amount => 0, mode => 'moov', account_id => $acct,
    created_at => $BOOT, updated_at => $BOOT,
  };
}

# ---------------------------------------------------------------------------
# Helpers: validation
# ---------------------------------------------------------------------------

# true when $v is a JSON number (not a string, not a boolean) with an integral
# value inside the JSON-safe range
sub is_json_int ($v) {
  return 0 if !defined $v || ref $v;
  my $flags = B::svref_2object(\$v)->FLAGS;
  return 0 if $flags & B::SVp_POK;
  return 0 unless $flags & (B::SVp_IOK | B::SVp_NOK);
  no warnings;
  return 0 unless $v == $v && $v == int($v);    # rejects NaN, fractions
  return 0 if abs($v) > MAX_INT;                 # rejects inf, huge values
  return 1;
}

# true when $v is a JSON string
sub is_json_str ($v) {
  return 0 if !defined $v || ref $v;
  my $flags = B::svref_2object(\$v)->FLAGS;
  return ($flags & B::SVp_POK) ? 1 : 0;
}

# Canonical integer id from a path placeholder, or undef
sub path_id ($raw) {
  return undef unless defined $raw && $raw =~ /\A[0-9]{1,15}\z/;
  return 0 + $raw;
}

sub err ($c, $status, $msg) {
  return $c->render(json => {error => $msg}, status => $status);
}

# JSON object body or undef (after rendering a 400)
sub json_object_body ($c) {
  my $body = $c->req->json;
  unless (ref $body eq 'HASH') {
    err($c, 400, 'Request body must be a JSON object');
    return undef;
  }
  return $body;
}

# Validates a phone_number object; returns (clean, undef) or (undef, error)
sub clean_phone ($p, $where) {
  return (undef, "$where must be an object") unless ref $p eq 'HASH';
  my %out;
  my $n = $p->{number};
  if (!defined $n) { return (undef, "$where.number is required") }
  elsif (is_json_str($n)) {
    my $s = "$n";
    return (undef, "$where.number must be a phone number") unless $s =~ /\A\+?[0-9][0-9 .\-]{3,24}\z/;
    $out{number} = $s;
  }
  elsif (is_json_int($n)) {
    return (undef, "$where.number must be a phone number") unless $n > 0;
    $out{number} = 0 + $n;
  }
  else { return (undef, "$where.number must be a string or an integer") }

  my $country = $p->{country};
  if (!defined $country) { return (undef, "$where.country is required") }
  return (undef, "$where.country must be a two-letter country code")
    unless is_json_str($country) && "$country" =~ /\A[A-Za-z]{2}\z/;
  $out{country} = "$country";
  return (\%out, undef);
}

# Validates the fields of a new customer; returns (clean, undef) or (undef, error)
sub clean_customer ($b, $where) {
  my %out;
  my $email = $b->{email};
  return (undef, "$where.email is required") unless defined $email;
  return (undef, "$where.email must be an email address")
    unless is_json_str($email) && "$email" =~ /\A[^@\s]+@[^@\s]+\z/;
  $out{email} = "$email";
  for my $f (qw(firstname lastname)) {
    my $v = $b->{$f};
    if (!defined $v) { $out{$f} = undef; next }
    return (undef, "$where.$f must be a string") unless is_json_str($v);
    $out{$f} = "$v";
  }
  if (defined $b->{phone_number}) {
    my ($p, $e) = clean_phone($b->{phone_number}, "$where.phone_number");
    return (undef, $e) if $e;
    $out{phone_number} = $p;
  }
  else { $out{phone_number} = undef }
  return (\%out, undef);
}

sub new_customer ($acct, $clean) {
  my $id  = $next_id{customer}++;
  my $now = now_iso();
  my $cust = {
    id           => $id,
    account_id   => $acct,
    email        => $clean->{email},
    firstname    => $clean->{firstname},
    lastname     => $clean->{lastname},
    phone_number => $clean->{phone_number},
    created_at   => $now,
    updated_at   => $now,
  };
  $store{customers}{$id} = $cust;
  return $cust;
}

sub customer_json ($cust) {
  return {
    id           => $cust->{id},
    email        => $cust->{email},
    firstname    => $cust->{firstname},
    lastname     => $cust->{lastname},
    phone_number => $cust->{phone_number} ? {%{$cust->{phone_number}}} : undef,
    account_id   => $cust->{account_id},
    created_at   => $cust->{created_at},
    updated_at   => $cust->{updated_at},
  };
}

sub random_string ($len, $alphabet = ['a' .. 'z', 'A' .. 'Z', '0' .. '9']) {
  return join '', map { $alphabet->[int rand @$alphabet] } 1 .. $len;
}

sub transaction_json ($t) {
  return {
    id           => $t->{id},
    reference    => $t->{reference},
    amount       => $t->{amount},
    description  => $t->{description},
    callback_url => $t->{callback_url},
    status       => $t->{status},
    created_at   => $t->{created_at},
    updated_at   => $t->{updated_at},
  };
}

sub intent_json ($i) { return {%$i} }

sub account_currencies ($acct) {
  return sort { $a->{id} <=> $b->{id} } grep { $_->{account_id} == $acct } values %{$store{currencies}};
}

# Outbound callback (only when CALLBACKS is enabled; never in the harness)
my $UA = Mojo::UserAgent->new(connect_timeout => 5, request_timeout => 10, max_redirects => 0);

sub fire_callback ($t, $event) {
  return unless $CALLBACKS_ON;
  my $url = $t->{callback_url};
  return unless defined $url && length $url;
  my $payload = {name => $event, entity => transaction_json($t)};
  eval {
    $UA->post($url => json => $payload => sub { });
    1;
  } or app->log->warn("callback to $url failed: $@");
}

# ---------------------------------------------------------------------------
# Public (non-API) payment page the payment link points to
# ---------------------------------------------------------------------------
get '/pay/:token' => sub ($c) {
  my $tid = $store{tokens}{$c->param('token')};
  my $t   = defined $tid ? $store{transactions}{$tid} : undef;
  return $c->reply->not_found unless $t;
  $c->render(text => "Sandbox payment page for transaction $t->{id} ($t->{status})\n");
} => 'pay';

# ---------------------------------------------------------------------------
# Authentication: bearer secret key on every /v1 operation
# ---------------------------------------------------------------------------
under '/v1' => sub ($c) {
  my $header = $c->req->headers->authorization;
  my $acct;
  if (!defined $header) {
    $acct = 1 if $DEFECT eq 'no-auth';
  }
  elsif ($header =~ /\A\s*Bearer\s+(\S+)\s*\z/i) {
    my $key = $1;
    if    (length $SECRET_KEY        && secure_compare($key, $SECRET_KEY))        { $acct = 1 }
    elsif (length $SECOND_SECRET_KEY && secure_compare($key, $SECOND_SECRET_KEY)) { $acct = 2 }
  }
  unless ($acct) {
    $c->res->headers->www_authenticate('Bearer');
    err($c, 401, 'No valid secret key provided');
    return undef;
  }
  $c->stash(account => $acct);
  return 1;
};

# ---------------------------------------------------------------------------
# Customers
# ---------------------------------------------------------------------------

# Not in the reference, needed by the harness to get customers to delete
post '/customers' => sub ($c) {
  my $body = json_object_body($c) // return;
  my ($clean, $e) = clean_customer($body, 'customer');
  return err($c, 400, $e) if $e;
  my $cust = new_customer($c->stash('account'), $clean);
  $c->render(json => customer_json($cust));
};

del '/customers/:id' => sub ($c) {
  my $id   = path_id($c->param('id'));
  my $cust = defined $id ? $store{customers}{$id} : undef;
  unless ($cust && $cust->{account_id} == $c->stash('account')) {
    return err($c, 500, 'Internal error') if $DEFECT eq 'delete-500';
    return err($c, 404, 'Customer not found');
  }
  delete $store{customers}{$id};
  $c->rendered(204);
};

# ---------------------------------------------------------------------------
# Transactions
# ---------------------------------------------------------------------------
post '/transactions' => sub ($c) {
  my $acct = $c->stash('account');
  my $body = json_object_body($c) // return;

  # amount: required positive integer
  my $amount = $body->{amount};
  return err($c, 400, 'amount is required') unless defined $amount;
  return err($c, 400, 'amount must be a positive integer') unless is_json_int($amount) && $amount >= 1;
  $amount = int(0 + $amount);

  # description: optional string
  my $description = $body->{description};
  if (defined $description) {
    return err($c, 400, 'description must be a string') unless is_json_str($description);
    $description = "$description";
  }

  # currency: optional object {iso}; default is the account's default currency
  my @currencies = account_currencies($acct);
  my ($currency) = grep { $_->{default} } @currencies;
  $currency //= $currencies[0];
  if (defined(my $cur = $body->{currency})) {
    return err($c, 400, 'currency must be an object') unless ref $cur eq 'HASH';
    my $iso = $cur->{iso};
    return err($c, 400, 'currency.iso is required') unless defined $iso;
    return err($c, 400, 'currency.iso must be a string') unless is_json_str($iso);
    ($currency) = grep { uc $_->{name} eq uc "$iso" } @currencies;
    return err($c, 400, 'currency.iso is not a supported currency') unless $currency;
  }

  # callback_url: optional absolute http(s) URL, stored as sent
  my $callback_url = $body->{callback_url};
  if (defined $callback_url) {
    return err($c, 400, 'callback_url must be a string') unless is_json_str($callback_url);
    $callback_url = "$callback_url";
    my $u = Mojo::URL->new($callback_url);
    return err($c, 400, 'callback_url must be an absolute http(s) URL')
      unless ($u->scheme // '') =~ /\Ahttps?\z/i && length($u->host // '') && $callback_url !~ /\s/;
    $callback_url =~ s/\?[^#]*// if $DEFECT eq 'drop-callback-query';
  }

  # custom_metadata: optional object
  my $meta = $body->{custom_metadata};
  return err($c, 400, 'custom_metadata must be an object') if defined $meta && ref $meta ne 'HASH';

  # mode: optional string
  my $mode = $body->{mode};
  if (defined $mode) {
    return err($c, 400, 'mode must be a string') unless is_json_str($mode);
    $mode = "$mode";
  }

  # customer: optional object; {id} references an existing customer,
  # otherwise a new customer is created from the fields
  my ($customer, $new_customer);
  if (defined(my $cb = $body->{customer})) {
    return err($c, 400, 'customer must be an object') unless ref $cb eq 'HASH';
    if (defined $cb->{id}) {
      return err($c, 400, 'customer.id must be an integer') unless is_json_int($cb->{id});
      $customer = $store{customers}{0 + $cb->{id}};
      return err($c, 400, 'customer not found') unless $customer && $customer->{account_id} == $acct;
      for my $f (qw(email firstname lastname)) {
        return err($c, 400, "customer.$f must be a string") if defined $cb->{$f} && !is_json_str($cb->{$f});
      }
      if (defined $cb->{phone_number}) {
        my (undef, $e) = clean_phone($cb->{phone_number}, 'customer.phone_number');
        return err($c, 400, $e) if $e;
      }
    }
    else {
      my ($clean, $e) = clean_customer($cb, 'customer');
      return err($c, 400, $e) if $e;
      $new_customer = $clean;
    }
  }
  $customer = new_customer($acct, $new_customer) if $new_customer;

  $amount += 1 if $DEFECT eq 'amount-plus-one';

  my $reference;
  do { $reference = 'trx_' . random_string(12) } while $store{references}{$reference};
  $store{references}{$reference} = 1;

  my $now = now_iso();
  my $id  = $next_id{transaction}++;
  my $t   = {
    id              => $id,
    account_id      => $acct,
    reference       => $reference,
    amount          => $amount,
    description     => $description,
    callback_url    => $callback_url,
    status          => 'pending',
    currency_id     => $currency->{id},
    customer_id     => $customer ? $customer->{id} : undef,
    custom_metadata => $meta,
    mode            => $mode,
    token           => undef,
    created_at      => $now,
    updated_at      => $now,
  };
  $store{transactions}{$id} = $t;
  $c->render(json => transaction_json($t));
};

post '/transactions/:id/token' => sub ($c) {
  my $id = path_id($c->param('id'));
  my $t  = defined $id ? $store{transactions}{$id} : undef;
  return err($c, 404, 'Transaction not found') unless $t && $t->{account_id} == $c->stash('account');

  unless (defined $t->{token}) {
    my $token;
    do { $token = random_string(1, [1 .. 9]) . random_string(14, [0 .. 9]) } while $store{tokens}{$token};
    $t->{token} = $token;
    $store{tokens}{$token} = $t->{id};
  }
  my $url = $c->url_for('pay', token => $t->{token})->to_abs->to_string;
  $c->render(json => {token => $t->{token}, url => $url});
};

post '/transactions/:mode' => sub ($c) {
  my $acct = $c->stash('account');
  my $mode = $c->param('mode');
  my $body = json_object_body($c) // return;

  # token: required, integer (payload shape) or string (as returned by /token)
  my $raw = $body->{token};
  return err($c, 400, 'token is required') unless defined $raw;
  my $token;
  if    (is_json_str($raw)) { $token = "$raw" }
  elsif (is_json_int($raw)) { $token = sprintf '%d', $raw }
  else                      { return err($c, 400, 'token must be a string or an integer') }

  my $phone;
  if (defined $body->{phone_number}) {
    (my $p, my $e) = clean_phone($body->{phone_number}, 'phone_number');
    return err($c, 400, $e) if $e;
    $phone = $p;
  }

  my $tid = $store{tokens}{$token};
  my $t   = defined $tid ? $store{transactions}{$tid} : undef;
  return err($c, 404, 'Transaction not found') unless $t && $t->{account_id} == $acct;

  my $currency = $store{currencies}{$t->{currency_id}};
  return err($c, 400, 'mode is not supported') unless grep { $_ eq $mode } @{$currency->{modes}};

  return err($c, 409, "Transaction is not pending (status: $t->{status})") unless $t->{status} eq 'pending';

  my $now = now_iso();
  my $iid = $next_id{intent}++;
  my $intent = {
    reference         => 'pi_' . random_string(12),
    amount            => $t->{amount},
    status            => 'sent',
    currency_id       => $t->{currency_id},
    mode              => "$mode",
    last_error_code   => undef,
    created_at        => $now,
    updated_at        => $now,
    approved_at       => $now,
    canceled_at       => undef,
    deleted_at        => undef,
    payment_method_id => $next_id{payment_method}++,
    transaction_key   => Mojo::Util::sha1_sum(join '|', $iid, $t->{id}, rand, time),
    account_id        => $acct,
  };
  $store{intents}{$iid} = {%$intent, transaction_id => $t->{id}, phone_number => $phone};

  $t->{status}     = 'approved';
  $t->{updated_at} = $now;
  fire_callback($t, 'transaction.approved');

  $c->render(json => [intent_json($intent)]);
};

# ---------------------------------------------------------------------------
# Balances and currencies
# ---------------------------------------------------------------------------
get '/balances/:id' => sub ($c) {
  my $id = path_id($c->param('id'));
  my $b  = defined $id ? $store{balances}{$id} : undef;
  return err($c, 404, 'Balance not found') unless $b && $b->{account_id} == $c->stash('account');
  $c->render(json => [{%$b}]);
};

get '/currencies/:id' => sub ($c) {
  my $id  = path_id($c->param('id'));
  my $cur = defined $id ? $store{currencies}{$id} : undef;
  return err($c, 404, 'Currency not found') unless $cur && $cur->{account_id} == $c->stash('account');
  $c->render(json => [{%$cur, modes => [@{$cur->{modes}}]}]);
};

app->start;
