class Customer < ApplicationRecord
  belongs_to :account
  has_many :transactions, dependent: :nullify

  validates :email, presence: true, format: { with: URI::MailTo::EMAIL_REGEXP }
end
