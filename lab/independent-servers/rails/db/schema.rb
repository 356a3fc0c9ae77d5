# This file is auto-generated from the current state of the database. Instead
# of editing this file, please use the migrations feature of Active Record to
# incrementally modify your database, and then regenerate this schema definition.
#
# This file is the source Rails uses to define your schema when running `bin/rails
# db:schema:load`. When creating a new database, `bin/rails db:schema:load` tends to
# be faster and is potentially less error prone than running all of your
# migrations from scratch. Old migrations may fail to apply correctly if those
# migrations use external dependencies or application code.
#
# It's strongly recommended that you check this file into your version control system.

ActiveRecord::Schema.define(version: 2024_01_01_000007) do

  create_table "accounts", force: :cascade do |t|
    t.string "name", null: false
    t.string "api_key", null: false
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["api_key"], name: "index_accounts_on_api_key", unique: true
  end

  create_table "balances", force: :cascade do |t|
    t.integer "account_id", null: false
    t.integer "amount", default: 0, null: false
    t.string "mode", null: false
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["account_id"], name: "index_balances_on_account_id"
  end

  create_table "currencies", force: :cascade do |t|
    t.integer "account_id", null: false
    t.string "name", null: false
    t.string "iso", null: false
    t.json "modes", null: false
    t.string "prefix"
    t.string "suffix"
    t.boolean "default", default: false, null: false
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["account_id", "iso"], name: "index_currencies_on_account_id_and_iso", unique: true
    t.index ["account_id"], name: "index_currencies_on_account_id"
  end

  create_table "customers", force: :cascade do |t|
    t.integer "account_id", null: false
    t.string "email"
    t.string "firstname"
    t.string "lastname"
    t.json "phone_number"
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["account_id"], name: "index_customers_on_account_id"
  end

  create_table "payment_intents", force: :cascade do |t|
    t.integer "account_id", null: false
    t.integer "transaction_id", null: false
    t.integer "currency_id", null: false
    t.integer "payment_method_id"
    t.string "reference", null: false
    t.integer "amount", null: false
    t.string "status", default: "pending", null: false
    t.string "mode", null: false
    t.string "last_error_code"
    t.datetime "approved_at"
    t.datetime "canceled_at"
    t.datetime "deleted_at"
    t.string "transaction_key", null: false
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["account_id"], name: "index_payment_intents_on_account_id"
    t.index ["currency_id"], name: "index_payment_intents_on_currency_id"
    t.index ["payment_method_id"], name: "index_payment_intents_on_payment_method_id"
    t.index ["reference"], name: "index_payment_intents_on_reference", unique: true
    t.index ["transaction_id"], name: "index_payment_intents_on_transaction_id"
    t.index ["transaction_key"], name: "index_payment_intents_on_transaction_key", unique: true
  end

  create_table "payment_methods", force: :cascade do |t|
    t.integer "account_id", null: false
    t.string "number", null: false
    t.string "country", null: false
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["account_id", "number", "country"], name: "index_payment_methods_on_account_id_and_number_and_country", unique: true
    t.index ["account_id"], name: "index_payment_methods_on_account_id"
  end

  create_table "transactions", force: :cascade do |t|
    t.integer "account_id", null: false
    t.integer "customer_id"
    t.integer "currency_id", null: false
    t.string "reference", null: false
    t.integer "amount", null: false
    t.string "description"
    t.string "callback_url"
    t.string "status", default: "pending", null: false
    t.string "mode"
    t.json "custom_metadata"
    t.string "token"
    t.datetime "created_at", precision: 6, null: false
    t.datetime "updated_at", precision: 6, null: false
    t.index ["account_id"], name: "index_transactions_on_account_id"
    t.index ["currency_id"], name: "index_transactions_on_currency_id"
    t.index ["customer_id"], name: "index_transactions_on_customer_id"
    t.index ["reference"], name: "index_transactions_on_reference", unique: true
    t.index ["token"], name: "index_transactions_on_token", unique: true
  end

  add_foreign_key "balances", "accounts"
  add_foreign_key "currencies", "accounts"
  add_foreign_key "customers", "accounts"
  add_foreign_key "payment_intents", "accounts"
  add_foreign_key "payment_intents", "currencies"
  add_foreign_key "payment_intents", "payment_methods"
  add_foreign_key "payment_intents", "transactions"
  add_foreign_key "payment_methods", "accounts"
  add_foreign_key "transactions", "accounts"
  add_foreign_key "transactions", "currencies"
  add_foreign_key "transactions", "customers"
end
