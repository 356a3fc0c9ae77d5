class CreatePaymentIntents < ActiveRecord::Migration[6.1]
  def change
    create_table :payment_intents do |t|
      t.references :account, null: false, foreign_key: true
      t.references :transaction, null: false, foreign_key: true
      t.references :currency, null: false, foreign_key: true
      t.references :payment_method, foreign_key: true
      t.string :reference, null: false
      t.integer :amount, null: false
      t.string :status, null: false, default: "pending"
      t.string :mode, null: false
      t.string :last_error_code
      t.datetime :approved_at
      t.datetime :canceled_at
      t.datetime :deleted_at
      t.string :transaction_key, null: false
      t.timestamps
    end
    add_index :payment_intents, :reference, unique: true
    add_index :payment_intents, :transaction_key, unique: true
  end
end
