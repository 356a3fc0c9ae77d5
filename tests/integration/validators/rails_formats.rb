# Rails' URI and e-mail formats (Ruby's own uri library, which Rails validations use: `format: { with:
# URI::DEFAULT_PARSER.make_regexp(%w[http https]) }`, `URI.parse(url).is_a?(URI::HTTP)` with a host, and
# `URI::MailTo::EMAIL_REGEXP`) on the values read from stdin (JSON lines of {"kind", "value"}); prints the
# validators run and every value refused.
require 'json'
require 'uri'

url_format = URI::DEFAULT_PARSER.make_regexp(%w[http https])
names = {
  format: "Ruby #{RUBY_VERSION} URI::DEFAULT_PARSER.make_regexp(%w[http https])",
  parse: "Ruby #{RUBY_VERSION} URI.parse (URI::HTTP with a host)",
  email: "Ruby #{RUBY_VERSION} URI::MailTo::EMAIL_REGEXP",
}
refused = []
$stdin.each_line do |line|
  next if line.strip.empty?
  entry = JSON.parse(line)
  value = entry['value']
  if entry['kind'] == 'url'
    match = url_format.match(value)
    unless match && match[0] == value
      refused << { validator: names[:format], kind: 'url', value: value, reason: 'no match' }
    end
    begin
      parsed = URI.parse(value)
      unless parsed.is_a?(URI::HTTP) && parsed.host && !parsed.host.empty?
        refused << { validator: names[:parse], kind: 'url', value: value, reason: 'not http(s) with a host' }
      end
    rescue URI::InvalidURIError => error
      refused << { validator: names[:parse], kind: 'url', value: value, reason: error.message[0, 200] }
    end
  elsif !URI::MailTo::EMAIL_REGEXP.match?(value)
    refused << { validator: names[:email], kind: 'email', value: value, reason: 'no match' }
  end
end
puts JSON.generate(
  ran: names.values,
  skipped: [],
  refused: refused,
)
