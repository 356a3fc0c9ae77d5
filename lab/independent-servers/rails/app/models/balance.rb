class Balance < ApplicationRecord
  belongs_to :account

  validates :mode, presence: true
  validates :amount, numericality: { only_integer: true }

  # Atomic increment (safe with concurrent requests).
  def self.credit!(account, mode, amount)
    balance = account.balances.find_by(mode: mode) || account.balances.order(:id).first
    return unless balance

    update_counters(balance.id, amount: amount, touch: true)
  end
end
