class CreateCustomers < ActiveRecord::Migration[6.1]
  def change
    create_table :customers do |t|
      t.references :account, null: false, foreign_key: true
      t.string :email
      t.string :firstname
      t.string :lastname
      t.json :phone_number
      t.timestamps
    end
  end
end
