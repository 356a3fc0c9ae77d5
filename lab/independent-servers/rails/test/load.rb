# Load check: ruby test/load.rb base_url [threads] [seconds]
# Every thread keeps one keep-alive connection and runs the full flow repeatedly.
require "net/http"
require "json"

BASE = URI(ARGV[0] || "http://127.0.0.1:3000/v1")
THREADS = Integer(ARGV[1] || 30)
SECONDS = Float(ARGV[2] || 20)
KEYS = [ENV.fetch("SECRET_KEY", "sk_one"), ENV.fetch("SECOND_SECRET_KEY", "sk_two")]

stats = Hash.new(0)
lat = []
errors = []
mutex = Mutex.new
deadline = Time.now + SECONDS

workers = THREADS.times.map do |n|
  Thread.new do
    key = KEYS[n % 2]
    http = Net::HTTP.start(BASE.host, BASE.port, read_timeout: 10)
    call = lambda do |method, path, body = nil, expect = [200, 201, 204], k = key|
      r = Net::HTTPGenericRequest.new(method, !body.nil?, true, "#{BASE.path}/#{path}")
      r["Authorization"] = "Bearer #{k}"
      if body
        r["Content-Type"] = "application/json"
        r.body = body.to_json
      end
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      res = http.request(r)
      dt = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
      mutex.synchronize do
        stats[res.code] += 1
        lat << dt
        errors << "#{method} #{path} #{res.code} #{res.body[0, 200]}" unless Array(expect).include?(res.code.to_i)
      end
      res.body.to_s.empty? ? nil : JSON.parse(res.body)
    end
    while Time.now < deadline
      begin
        c = call.("POST", "customers", { email: "u#{n}@ex.com", firstname: "U", lastname: "V" })
        t = call.("POST", "transactions", { description: "d", amount: 100 + n, currency: { iso: "XOF" },
                                            callback_url: "https://ex.com/cb?n=#{n}", customer: { id: c["id"] } })
        tok = call.("POST", "transactions/#{t['id']}/token")
        call.("POST", "transactions/mtn", { token: tok["token"], phone_number: { number: "+22997000001", country: "BJ" } })
        call.("POST", "transactions/mtn", { token: tok["token"] }, 422)
        call.("GET", "balances/#{(n % 2) + 1}")
        call.("GET", "currencies/#{(n % 2) + 1}")
        call.("GET", "balances/#{2 - (n % 2)}", nil, 404)
        call.("DELETE", "customers/#{c['id']}", nil, 204)
        call.("DELETE", "customers/#{c['id']}", nil, 404)
        call.("GET", "balances/1", nil, 401, "wrong")
        call.("POST", "transactions", { amount: "x" }, 422)
      rescue StandardError => e
        mutex.synchronize { errors << "#{e.class}: #{e.message}" }
        http = Net::HTTP.start(BASE.host, BASE.port, read_timeout: 10)
      end
    end
    http.finish
  end
end
workers.each(&:join)
lat.sort!
total = lat.size
puts "requests: #{total} in #{SECONDS}s (#{(total / SECONDS).round}/s), codes: #{stats}"
puts "latency p50=#{(lat[total / 2] * 1000).round(1)}ms p99=#{(lat[(total * 0.99).to_i] * 1000).round(1)}ms max=#{(lat.last * 1000).round(1)}ms" if total > 0
puts "errors: #{errors.size}"
errors.first(10).each { |e| puts "  #{e}" }
exit(errors.empty? ? 0 : 1)
