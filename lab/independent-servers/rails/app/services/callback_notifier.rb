require "net/http"

# Posts transaction updates to the transaction's callback_url -- only when the
# server runs with CALLBACKS=on (never in the harness: CALLBACKS=off).
class CallbackNotifier
  def self.transaction_updated(transaction)
    return unless Sandbox.callbacks?
    return if transaction.callback_url.blank?

    body = { name: "transaction.#{transaction.status}", entity: transaction.as_json }.to_json
    url = transaction.callback_url
    Thread.new do
      uri = URI.parse(url)
      Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https", open_timeout: 2, read_timeout: 5) do |http|
        http.post(uri.request_uri, body, "Content-Type" => "application/json")
      end
    rescue StandardError => e
      Rails.logger.warn("callback to #{url} failed: #{e.class}: #{e.message}")
    end
  end
end
