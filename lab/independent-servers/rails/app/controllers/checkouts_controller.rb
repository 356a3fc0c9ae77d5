# GET /checkout/:token -- the payment link returned by the token operation.
# Public (no API key): shows what is to be paid.
class CheckoutsController < ActionController::API
  def show
    transaction = Transaction.find_by(token: params[:token].to_s)
    if transaction
      render json: transaction.as_json(only: %i[reference amount description status]).merge(currency: transaction.currency.iso)
    else
      render json: { status: 404, error: "Not Found" }, status: :not_found
    end
  end
end
