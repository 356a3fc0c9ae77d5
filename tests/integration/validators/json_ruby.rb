# Ruby's json gem with its defaults (JSON.parse, as Rails' params parser calls it) on texts read from stdin, one
# JSON-encoded string per line; prints one JSON line per text: {"read": false} or {"read": true, "value": ...},
# non-finite numbers written as the strings "NaN", "Infinity", "-Infinity".
require 'json'

def plain(value)
  case value
  when Float then value.finite? ? value : (value.nan? ? 'NaN' : (value.positive? ? 'Infinity' : '-Infinity'))
  when Array then value.map { |item| plain(item) }
  when Hash then value.transform_values { |item| plain(item) }
  else value
  end
end

$stdout.sync = true
$stdin.each_line do |line|
  text = JSON.parse(line)
  begin
    puts JSON.generate({ read: true, value: plain(JSON.parse(text)) })
  rescue JSON::ParserError
    puts JSON.generate({ read: false })
  end
end
