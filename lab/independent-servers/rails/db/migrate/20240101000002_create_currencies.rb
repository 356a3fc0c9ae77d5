class CreateCurrencies < ActiveRecord::Migration[6.1]
  def change
    create_table :currencies do |t|
      t.references :account, null: false, foreign_key: true
      t.string :name, null: false
      t.string :iso, null: false
      t.json :modes, null: false
      t.string :prefix
      t.string :suffix
      t.boolean :default, null: false, default: false
      t.timestamps
    end
    add_index :currencies, [:account_id, :iso], unique: true
  end
end
