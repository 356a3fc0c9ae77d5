# The attempt to pay a transaction through a payment mode.
class PaymentIntent < ApplicationRecord
  STATUSES = %w[pending scheduled sent failed].freeze

  belongs_to :account
  # `transaction` is a method of every Active Record object, hence the name.
  belongs_to :payment_transaction, class_name: "Transaction", foreign_key: :transaction_id, inverse_of: :payment_intents
  belongs_to :currency
  belongs_to :payment_method, optional: true

  before_validation :assign_keys, on: :create

  validates :reference, :transaction_key, presence: true
  validates :status, inclusion: { in: STATUSES }
  validates :mode, presence: true
  validates :amount, numericality: { only_integer: true }
  validate :mode_supported_by_currency, if: -> { mode.present? && currency }
  validate :transaction_pending, on: :create, if: -> { payment_transaction }

  private

  def assign_keys
    self.reference ||= "pi-#{SecureRandom.alphanumeric(12).downcase}"
    self.transaction_key ||= SecureRandom.uuid
  end

  def mode_supported_by_currency
    errors.add(:mode, :inclusion, value: mode) unless currency.supports_mode?(mode)
  end

  def transaction_pending
    errors.add(:token, "has already been used: the transaction is #{payment_transaction.status}") unless payment_transaction.pending?
  end
end
