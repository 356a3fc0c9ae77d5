# Random malformed bodies against every operation: ruby test/fuzz.rb base_url [n]
# Fails on any 5xx or dropped connection.
require "net/http"
require "json"

BASE = URI(ARGV[0] || "http://127.0.0.1:3000/v1")
N = Integer(ARGV[1] || 1500)
KEY = ENV.fetch("SECRET_KEY", "sk_one")
srand(Integer(ENV.fetch("SEED", 42)))
http = Net::HTTP.start(BASE.host, BASE.port)

SCALARS = [nil, true, false, 0, -1, 1, 2**31, 2**63, 10**30, 1.5, -0.0, 1e300, "", " ", "abc", "1", "1abc", "+22997000001",
           "XOF", "mtn", "BJ", "a@b.co", "\u0000", "é" * 3, "x" * 5000, "https://e.com/?q=1", "<script>", "1e5"]
def rand_value(depth = 0)
  case rand(depth > 2 ? 2 : 4)
  when 0, 1 then SCALARS.sample
  when 2 then Array.new(rand(3)) { rand_value(depth + 1) }
  else rand_object(depth + 1)
  end
end
KEYS = %w[amount description currency iso callback_url custom_metadata customer id email firstname lastname phone_number
          number country mode token transaction]
def rand_object(depth = 0)
  Array.new(rand(5)) { [KEYS.sample, rand_value(depth)] }.to_h
end

def call(http, method, path, raw)
  r = Net::HTTPGenericRequest.new(method, !raw.nil?, true, "#{BASE.path}/#{path}")
  r["Authorization"] = "Bearer #{KEY}"
  r["Content-Type"] = "application/json" if raw
  r.body = raw if raw
  http.request(r)
end

ids = %w[1 2 0 -1 abc 1abc 99999999999999999999 1.5 %20 x%00 mtn token]
bad = 0
N.times do |i|
  body = rand(10).zero? ? ["{", "[", "nul", "\"x", "{\"a\":}", "\xff"].sample : JSON.generate(rand(6).zero? ? rand_value : rand_object)
  method, path = [
    ["POST", "transactions"], ["POST", "customers"], ["POST", "transactions/#{%w[mtn moov zzz 1 token].sample}"],
    ["POST", "transactions/#{ids.sample}/token"], ["DELETE", "customers/#{ids.sample}"],
    ["GET", "balances/#{ids.sample}"], ["GET", "currencies/#{ids.sample}"]
  ].sample
  body = nil if method != "POST" && rand(2).zero?
  begin
    res = call(http, method, path, body)
    if res.code.to_i >= 500
      bad += 1
      puts "#{res.code} #{method} #{path} #{body.to_s[0, 200]} -> #{res.body.to_s[0, 200]}"
    end
  rescue StandardError => e
    bad += 1
    puts "#{e.class} #{method} #{path} #{body.to_s[0, 200]}"
    http = Net::HTTP.start(BASE.host, BASE.port)
  end
end
puts "#{N} fuzz requests, #{bad} server errors"
exit(bad.zero? ? 0 : 1)
