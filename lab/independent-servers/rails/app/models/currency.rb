class Currency < ApplicationRecord
  belongs_to :account

  validates :name, :iso, presence: true
  validates :iso, uniqueness: { scope: :account_id }

  def supports_mode?(mode)
    Array(modes).include?(mode.to_s)
  end
end
