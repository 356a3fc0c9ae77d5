class CreateAccounts < ActiveRecord::Migration[6.1]
  def change
    create_table :accounts do |t|
      t.string :name, null: false
      t.string :api_key, null: false
      t.timestamps
    end
    add_index :accounts, :api_key, unique: true
  end
end
