class CreatePaymentMethods < ActiveRecord::Migration[6.1]
  def change
    create_table :payment_methods do |t|
      t.references :account, null: false, foreign_key: true
      t.string :number, null: false
      t.string :country, null: false
      t.timestamps
    end
    add_index :payment_methods, [:account_id, :number, :country], unique: true
  end
end
