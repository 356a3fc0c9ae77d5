Rails.application.routes.draw do
  # Ids are whole numbers: without the constraint, Active Record's find casts "4abc" (or "3.1e-268") to a
  # neighbouring integer and acts on another record (found by collect-conformance's ID-EXACT).
  namespace :v1, defaults: { format: :json } do
    constraints(id: /\d+/) do
      resources :customers, only: [:create, :destroy]
      resources :transactions, only: [:create] do
        post :token, on: :member
      end
      resources :balances, only: [:show]
      resources :currencies, only: [:show]
    end
    post "transactions/:mode", to: "transactions#send_payment", as: :send_transaction
  end

  get "checkout/:token", to: "checkouts#show", as: :checkout

  # Anything else: 404 with a JSON body.
  match "/", to: "errors#not_found", via: :all
  match "*unmatched", to: "errors#not_found", via: :all, format: false
end
