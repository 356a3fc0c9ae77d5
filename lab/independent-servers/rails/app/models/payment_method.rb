# A phone number through which a transaction is paid.
class PaymentMethod < ApplicationRecord
  belongs_to :account
  has_many :payment_intents, dependent: :nullify

  validates :number, presence: true, format: { with: /\A\+?[0-9]{4,20}\z/ }
  validates :country, presence: true, format: { with: /\A[A-Z]{2}\z/ }
end
