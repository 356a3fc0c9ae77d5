# Self-check of a running server: ruby test/smoke.rb [base_url]
# Env: SECRET_KEY, SECOND_SECRET_KEY, DEFECT (the mode the server was started with).
require "net/http"
require "json"
require "uri"

BASE = URI(ARGV[0] || "http://127.0.0.1:#{ENV.fetch('PORT', '3000')}/v1")
K1 = ENV.fetch("SECRET_KEY", "sk_one")
K2 = ENV.fetch("SECOND_SECRET_KEY", "sk_two")
DEFECT = ENV.fetch("DEFECT", "")
$failures = 0
$checks = 0
$http = Net::HTTP.start(BASE.host, BASE.port)

Resp = Struct.new(:code, :body, :json, :headers)

def req(method, path, body: nil, key: K1, raw: nil, headers: {}, auth: nil)
  uri_path = path.start_with?("/") && !path.start_with?("/v1") ? path : "#{BASE.path}/#{path}"
  r = Net::HTTPGenericRequest.new(method, !(body || raw).nil?, method != "HEAD", uri_path)
  r["Authorization"] = auth || "Bearer #{key}" if key || auth
  if body || raw
    r["Content-Type"] = "application/json"
    r.body = raw || JSON.generate(body)
  end
  headers.each { |k, v| r[k] = v }
  t0 = Time.now; res = $http.request(r); (dt = Time.now - t0) > 0.3 && puts("SLOW #{dt.round(2)}s #{method} #{path}")
  json = begin
    res.body && !res.body.empty? ? JSON.parse(res.body) : nil
  rescue JSON::ParserError
    :unparsable
  end
  Resp.new(res.code.to_i, res.body, json, res.to_hash)
rescue StandardError => e
  $http = Net::HTTP.start(BASE.host, BASE.port)
  Resp.new(0, e.message, nil, {})
end

def check(name, cond, info = nil)
  $checks += 1
  return if cond

  $failures += 1
  puts "FAIL: #{name} #{info}"
end

def expect(name, res, code)
  codes = Array(code)
  check(name, codes.include?(res.code), "expected #{codes.join('/')} got #{res.code} #{res.body.to_s[0, 300]}")
  check("#{name} (no 500)", res.code < 500 || codes.any? { |c| c >= 500 }, res.body.to_s[0, 200])
  res
end

ISO = /\A\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\z/
def iso?(v) = v.is_a?(String) && v.match?(ISO)
def iso_or_nil?(v) = v.nil? || iso?(v)

# ---- authentication
expect "balance no auth", req("GET", "balances/1", key: nil), DEFECT == "no-auth" ? 200 : 401
expect "balance wrong key", req("GET", "balances/1", key: "nope"), 401
expect "balance empty bearer", req("GET", "balances/1", auth: "Bearer "), 401
expect "balance empty header", req("GET", "balances/1", auth: ""), 401
expect "balance basic", req("GET", "balances/1", auth: "Basic Zm9vOmJhcg=="), 401
expect "balance key w/o scheme", req("GET", "balances/1", auth: K1), 401
%w[customers/1 transactions transactions/1/token transactions/mtn].each do |p|
  m = p == "customers/1" ? "DELETE" : "POST"
  expect "#{m} #{p} wrong key", req(m, p, key: "bad", body: {}), 401
  expect "#{m} #{p} no key", req(m, p, key: nil, body: {}), DEFECT == "no-auth" ? [204, 400, 404, 422] : 401
end
expect "currency wrong key", req("GET", "currencies/1", key: "zzz"), 401

# ---- balances / currencies, both accounts
[[K1, 1, 2], [K2, 2, 1]].each do |key, own, other|
  r = expect "balance #{own}", req("GET", "balances/#{own}", key: key), 200
  b = r.json&.first || {}
  check "balance array", r.json.is_a?(Array) && r.json.size == 1
  check "balance fields", b["id"] == own && b["amount"].is_a?(Integer) && b["mode"].is_a?(String) &&
                          b["account_id"].is_a?(Integer) && iso?(b["created_at"]) && iso?(b["updated_at"]), b
  expect "balance #{other} of other account", req("GET", "balances/#{other}", key: key), 404
  r = expect "currency #{own}", req("GET", "currencies/#{own}", key: key), 200
  c = r.json&.first || {}
  check "currency fields", c["id"] == own && c["name"].is_a?(String) && c["modes"].is_a?(Array) && c["modes"].include?("mtn") &&
                           c["prefix"].is_a?(String) && c["suffix"].is_a?(String) && c["account_id"].is_a?(Integer) &&
                           [true, false].include?(c["default"]) && iso?(c["created_at"]), c
  expect "currency #{other} of other account", req("GET", "currencies/#{other}", key: key), 404
end
%w[0 999999 abc 99999999999999999999999999 -1 1e999 %20 1.5].each do |id|
  expect "balance id #{id}", req("GET", "balances/#{id}"), [200, 404]
  expect "currency id #{id}", req("GET", "currencies/#{id}"), [200, 404]
end

# ---- customers
r = expect "create customer", req("POST", "customers", body: { email: "jo@example.com", firstname: "Jo", lastname: "Doe",
                                                               phone_number: { number: "+22997000001", country: "BJ" } }), [200, 201]
cust = r.json || {}
check "customer id", cust["id"].is_a?(Integer), cust
r = expect "create customer 2", req("POST", "customers", key: K2, body: { email: "k@example.com", firstname: "K", lastname: "L" }), [200, 201]
cust2 = r.json || {}
expect "customer no body", req("POST", "customers"), 400
expect "customer bad json", req("POST", "customers", raw: "{bad"), 400
expect "customer array", req("POST", "customers", raw: "[1,2]"), 400
expect "customer bad email", req("POST", "customers", body: { email: "nope", firstname: "x" }), 422
expect "customer email object", req("POST", "customers", body: { email: { a: 1 }, firstname: "x" }), [400, 422]
expect "customer phone string", req("POST", "customers", body: { email: "a@b.co", phone_number: "123" }), [200, 201]
expect "customer wrapped", req("POST", "customers", body: { customer: { email: "w@b.co" } }), [200, 201]

expect "delete other account's customer", req("DELETE", "customers/#{cust['id']}", key: K2), DEFECT == "delete-500" ? 500 : 404
r = expect "delete customer", req("DELETE", "customers/#{cust['id']}"), 204
check "delete empty body", r.body.to_s.empty?
expect "delete again", req("DELETE", "customers/#{cust['id']}"), DEFECT == "delete-500" ? 500 : 404
%w[999999 abc 0 -5 99999999999999999999999999].each do |id|
  expect "delete customer #{id}", req("DELETE", "customers/#{id}"), DEFECT == "delete-500" ? 500 : 404
end
expect "delete customer 2 (own)", req("DELETE", "customers/#{cust2['id']}", key: K2), 204

# ---- transactions
valid = { description: "Order 1", amount: 1500, currency: { iso: "XOF" }, callback_url: "https://example.com/cb?order=1&x=y",
          custom_metadata: { order: 1 }, customer: { email: "c@example.com", firstname: "C", lastname: "D",
                                                      phone_number: { number: 22997000001, country: "bj" } } }
r = expect "create transaction", req("POST", "transactions", body: valid), [200, 201]
t = r.json || {}
check "trx fields", t["id"].is_a?(Integer) && t["reference"].is_a?(String) && t["amount"].is_a?(Integer) &&
                    t["description"] == "Order 1" && t["status"] == "pending" && iso?(t["created_at"]) && iso?(t["updated_at"]), t
check "trx amount", t["amount"] == (DEFECT == "amount-plus-one" ? 1501 : 1500), t["amount"]
check "trx callback", t["callback_url"] == (DEFECT == "drop-callback-query" ? "https://example.com/cb" : valid[:callback_url]), t["callback_url"]
check "no token leak", !t.key?("token")

r = expect "create transaction minimal", req("POST", "transactions", body: { amount: 100 }), [200, 201]
tmin = r.json || {}
r = expect "create transaction string amount", req("POST", "transactions", body: { amount: "250", description: 7 }), [200, 201]
check "string amount cast", r.json && r.json["amount"] == (DEFECT == "amount-plus-one" ? 251 : 250) && r.json["description"] == "7", r.body

[[{ amount: "abc" }, 422], [{ amount: 12.5 }, 422], [{ amount: 0 }, 422], [{ amount: -3 }, 422],
 [{ amount: 10**30 }, 422], [{ amount: true }, 422], [{ amount: nil, description: "x" }, 422], [{ amount: [1] }, 422],
 [{ amount: { a: 1 } }, 422], [{ description: "x" }, 422], [{ amount: 10, currency: { iso: "EUR" } }, 422],
 [{ amount: 10, currency: { iso: 5 } }, 422], [{ amount: 10, currency: "XOF" }, [200, 201]],
 [{ amount: 10, customer: { id: 999999 } }, [404, 422]], [{ amount: 10, customer: { id: "abc" } }, [404, 422]],
 [{ amount: 10, customer: { id: 10**30 } }, [404, 422]],
 [{ amount: 10, customer: { email: "bad" } }, 422], [{ amount: 10, callback_url: "not a url" }, 422],
 [{ amount: 10, callback_url: "ftp://x.y/z" }, 422], [{ amount: 10, callback_url: 5 }, 422],
 [{ amount: 10, mode: "nope" }, 422], [{ amount: 10, mode: "mtn" }, [200, 201]],
 [{ amount: 10, custom_metadata: "str" }, [200, 201]], [{ amount: 10, customer: "str" }, [200, 201]],
 [{ amount: 10, customer: { id: cust2["id"] } }, [404, 422]]].each do |body, code|
  expect "create trx #{body.to_json}", req("POST", "transactions", body: body), code
end
expect "create trx no body", req("POST", "transactions"), 400
expect "create trx empty obj", req("POST", "transactions", raw: "{}"), 400
expect "create trx bad json", req("POST", "transactions", raw: '{"amount": 1,'), 400
expect "create trx null", req("POST", "transactions", raw: "null"), 400
expect "create trx string", req("POST", "transactions", raw: '"x"'), 400
expect "create trx invalid utf8", req("POST", "transactions", raw: "{\"amount\": 5, \"description\": \"\xff\xfe\"}".b), [400, 201, 422]
expect "create trx deep", req("POST", "transactions", raw: "#{'[' * 5000}#{']' * 5000}"), 400
expect "create trx deep metadata", req("POST", "transactions", raw: %({"amount":5,"custom_metadata":#{'{"a":' * 90}1#{'}' * 90}})), [200, 201, 400]
expect "create trx big body", req("POST", "transactions", body: { amount: 5, description: "x" * 1_000_000 }), [201, 413, 422]
expect "create trx form", req("POST", "transactions", raw: "amount=5", headers: { "Content-Type" => "application/x-www-form-urlencoded" }), [400, 201]
expect "create trx bad query", req("POST", "transactions?a=%ff%", body: { amount: 5 }), [400, 201]
expect "create trx other account", req("POST", "transactions", key: K2, body: { amount: 5, customer: { id: 1 } }), [404, 422]

# ---- token
r = expect "token", req("POST", "transactions/#{t['id']}/token"), [200, 201]
tok = r.json || {}
check "token fields", tok["token"].is_a?(String) && !tok["token"].empty? && tok["url"].is_a?(String), tok
r2 = expect "token again", req("POST", "transactions/#{t['id']}/token"), [200, 201]
check "token stable", r2.json && r2.json["token"] == tok["token"]
expect "token other account", req("POST", "transactions/#{t['id']}/token", key: K2), 404
%w[999999 abc 0 99999999999999999999999].each { |id| expect "token #{id}", req("POST", "transactions/#{id}/token"), 404 }
expect "token with junk body", req("POST", "transactions/#{tmin['id']}/token", raw: "{junk"), [200, 400]

# ---- send
expect "send no body", req("POST", "transactions/mtn"), 400
expect "send no token", req("POST", "transactions/mtn", body: { phone_number: { number: "+22997000001", country: "BJ" } }), 400
expect "send token object", req("POST", "transactions/mtn", body: { token: { a: 1 } }), [400, 404, 422]
expect "send token array", req("POST", "transactions/mtn", body: { token: [1] }), [400, 404, 422]
expect "send unknown token", req("POST", "transactions/mtn", body: { token: "nope" }), [404, 422]
expect "send other account", req("POST", "transactions/mtn", key: K2, body: { token: tok["token"] }), [404, 422]
expect "send bad mode", req("POST", "transactions/zzz", body: { token: tok["token"] }), [404, 422]
expect "send bad phone", req("POST", "transactions/mtn", body: { token: tok["token"], phone_number: { number: "abc", country: "Benin" } }), 422
expect "send bad json", req("POST", "transactions/mtn", raw: "{oops"), 400
r = expect "send", req("POST", "transactions/mtn", body: { token: tok["token"], phone_number: { number: "+22997000001", country: "BJ" } }), [200, 201]
i = (r.json.is_a?(Array) && r.json.first) || {}
check "send array", r.json.is_a?(Array) && r.json.size == 1, r.body
check "intent fields", i["reference"].is_a?(String) && i["amount"] == t["amount"] && %w[pending scheduled sent failed].include?(i["status"]) &&
                       i["currency_id"].is_a?(Integer) && i["mode"] == "mtn" && (i["last_error_code"].nil? || i["last_error_code"].is_a?(String)) &&
                       iso?(i["created_at"]) && iso?(i["updated_at"]) && iso_or_nil?(i["approved_at"]) && iso_or_nil?(i["canceled_at"]) &&
                       iso_or_nil?(i["deleted_at"]) && i["payment_method_id"].is_a?(Integer) && i["transaction_key"].is_a?(String) &&
                       i["account_id"] == 1, i
expect "send again", req("POST", "transactions/mtn", body: { token: tok["token"] }), [409, 422]
b = req("GET", "balances/1").json&.first || {}
check "balance credited", b["amount"] == t["amount"], b

# integer token (the type of the reference's payload shape), no phone number
r = expect "token min", req("POST", "transactions/#{tmin['id']}/token"), [200, 201]
r = expect "send int token", req("POST", "transactions/moov", body: { token: Integer(r.json["token"]) }), [200, 201]
check "intent null pm", r.json&.first && r.json.first["payment_method_id"].nil?, r.body

# ---- account 2 full flow
r = expect "k2 create", req("POST", "transactions", key: K2, body: { amount: 700, currency: { iso: "xof" }, customer: { email: "z@z.io" } }), [200, 201]
r = expect "k2 token", req("POST", "transactions/#{r.json['id']}/token", key: K2), [200, 201]
r = expect "k2 send", req("POST", "transactions/mtn", key: K2, body: { token: r.json["token"], phone_number: { number: "+22997000001", country: "BJ" } }), [200, 201]
check "k2 intent account", r.json&.first && r.json.first["account_id"] == 2

# ---- wrong methods / paths
[%w[GET customers/1], %w[PUT customers/1], %w[PATCH customers/1], %w[GET transactions], %w[DELETE transactions/1],
 %w[GET transactions/1/token], %w[POST balances/1], %w[DELETE currencies/1], %w[GET customers], %w[GET nothing],
 %w[OPTIONS balances/1]].each do |m, p|
  expect "#{m} #{p}", req(m, p), [404, 405]
end
expect "HEAD balances/1", req("HEAD", "balances/1"), 200
expect "unknown verb", req("FOO", "balances/1"), [400, 404, 405, 501]
expect "GET /", req("GET", "/"), 404
expect "balance .json", req("GET", "balances/1.json"), 200
expect "balance .xml", req("GET", "balances/1.xml"), [200, 404, 406]
expect "balance bad query", req("GET", "balances/1?x=%ff%zz"), [200, 400]

puts "#{$checks} checks, #{$failures} failures (DEFECT=#{DEFECT.inspect})"
exit($failures.zero? ? 0 : 1)
