Rails.application.routes.draw do
  # Ids are whole numbers: without the constraint, Active Record's find casts "4abc" (or "3.1e-268") to a
  # neighbouring integer and acts on another record (found by collect-conformance's ID-EXACT). Without
  # format: false the router reads "3.5" as id 3 with a format suffix ".5" and deletes customer 3 (found by
  # collect-conformance's CUSTOMER-ID-INTEGER).
  namespace :v1, defaults: { format: :json } do
    scope format: false, constraints: { id: /\d+/ } do
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
