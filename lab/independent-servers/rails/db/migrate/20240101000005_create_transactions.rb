class CreateTransactions < ActiveRecord::Migration[6.1]
  def change
    create_table :transactions do |t|
      t.references :account, null: false, foreign_key: true
      t.references :customer, foreign_key: true
      t.references :currency, null: false, foreign_key: true
      t.string :reference, null: false
      t.integer :amount, null: false
      t.string :description
      t.string :callback_url
      t.string :status, null: false, default: "pending"
      t.string :mode
      t.json :custom_metadata
      t.string :token
      t.timestamps
    end
    add_index :transactions, :reference, unique: true
    add_index :transactions, :token, unique: true
  end
end
