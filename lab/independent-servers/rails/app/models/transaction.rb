class Transaction < ApplicationRecord
  STATUSES = %w[pending approved canceled].freeze
  MAX_AMOUNT = 9_007_199_254_740_991 # 2**53 - 1: exact in every JSON client

  belongs_to :account
  belongs_to :customer, optional: true, autosave: true
  belongs_to :currency
  has_many :payment_intents, inverse_of: :payment_transaction, dependent: :destroy

  before_validation :assign_reference, on: :create
  before_create :plant_defects

  validates :reference, presence: true, uniqueness: true
  validates :amount, presence: true,
                     numericality: { only_integer: true, greater_than: 0, less_than_or_equal_to: MAX_AMOUNT }
  validates :status, inclusion: { in: STATUSES }
  validate :callback_url_is_http, if: -> { callback_url.present? }
  validate :mode_supported_by_currency, if: -> { mode.present? && currency }
  validate :customer_of_same_account, if: -> { customer }

  def pending?
    status == "pending"
  end

  # The payment-link token is generated once and then kept: it is a string of
  # 15 digits, so clients that send it back as a JSON integer (the type shown by the
  # send operation's payload) and clients that send the string both match it.
  def ensure_token!
    with_lock do
      if token.blank?
        self.token = loop do
          candidate = (SecureRandom.random_number(9 * 10**14) + 10**14).to_s
          break candidate unless Transaction.exists?(token: candidate)
        end
        save!
      end
    end
    token
  end

  def as_json(options = {})
    super({ except: [:token] }.merge(options || {}))
  end

  private

  def assign_reference
    self.reference ||= "trx-#{SecureRandom.alphanumeric(12).downcase}"
  end

  # Deliberate bugs, only when the server is started with DEFECT=<name>.
  def plant_defects
    self.amount += 1 if Sandbox.defect?("amount-plus-one")
    if Sandbox.defect?("drop-callback-query") && callback_url.present?
      self.callback_url = callback_url.sub(/\?[^#]*/, "")
    end
  end

  def callback_url_is_http
    uri = URI.parse(callback_url)
    errors.add(:callback_url, :invalid) unless uri.is_a?(URI::HTTP) && uri.host.present?
  rescue URI::Error
    errors.add(:callback_url, :invalid)
  end

  def mode_supported_by_currency
    errors.add(:mode, :inclusion, value: mode) unless currency.supports_mode?(mode)
  end

  def customer_of_same_account
    errors.add(:customer, :invalid) unless customer.account_id == account_id
  end
end
