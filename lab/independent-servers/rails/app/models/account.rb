class Account < ApplicationRecord
  has_many :customers, dependent: :destroy
  has_many :currencies, dependent: :destroy
  has_many :balances, dependent: :destroy
  has_many :transactions, dependent: :destroy
  has_many :payment_methods, dependent: :destroy
  has_many :payment_intents, dependent: :destroy

  validates :name, presence: true
  validates :api_key, presence: true, uniqueness: true

  # The account whose secret API key this is, or nil.
  def self.authenticate(key)
    key = key.to_s.dup.force_encoding(Encoding::UTF_8)
    return nil if !key.valid_encoding? || key.blank?

    find_by(api_key: key)
  end

  def default_currency
    currencies.find_by(default: true) || currencies.order(:id).first
  end

  def as_json(options = {})
    super({ except: [:api_key] }.merge(options || {}))
  end
end
