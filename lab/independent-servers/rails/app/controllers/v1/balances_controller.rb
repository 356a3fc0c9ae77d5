module V1
  class BalancesController < ApplicationController
    # GET /v1/balances/:id -- answered as a JSON array (as the reference shows)
    def show
      @balance = current_account.balances.find(params[:id])
      render json: [@balance]
    end
  end
end
