module V1
  class CurrenciesController < ApplicationController
    # GET /v1/currencies/:id -- answered as a JSON array (as the reference shows)
    def show
      @currency = current_account.currencies.find(params[:id])
      render json: [@currency]
    end
  end
end
