# Sandbox seed: two accounts (keys from SECRET_KEY / SECOND_SECRET_KEY), each with
# its currency and balances. Ids are fixed: account 1 owns balance 1 and currency 1,
# account 2 owns balance 2 and currency 2.
MODES = %w[mtn moov mtn_ci moov_tg togocel].freeze

accounts = [
  [1, "Sandbox account 1", ENV.fetch("SECRET_KEY", "")],
  [2, "Sandbox account 2", ENV.fetch("SECOND_SECRET_KEY", "")]
]

ActiveRecord::Base.transaction do
  accounts.each do |id, name, key|
    # A blank key can never authenticate (Account.authenticate refuses blank keys).
    key = "unset-#{SecureRandom.hex(24)}" if key.blank?
    Account.create!(id: id, name: name, api_key: key)
    Currency.create!(id: id, account_id: id, name: "FCFA", iso: "XOF", modes: MODES,
                     prefix: "", suffix: "F CFA", default: true)
    Balance.create!(id: id, account_id: id, amount: 0, mode: "mtn")
  end
  # One more balance per account, for the mode moov (ids 3 and 4).
  accounts.each { |id, _, _| Balance.create!(account_id: id, amount: 0, mode: "moov") }
end
