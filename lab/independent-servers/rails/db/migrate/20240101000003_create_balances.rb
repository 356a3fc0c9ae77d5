class CreateBalances < ActiveRecord::Migration[6.1]
  def change
    create_table :balances do |t|
      t.references :account, null: false, foreign_key: true
      t.integer :amount, null: false, default: 0
      t.string :mode, null: false
      t.timestamps
    end
  end
end
