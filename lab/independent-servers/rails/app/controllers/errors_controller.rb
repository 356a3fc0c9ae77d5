# Requests no route matches (unknown paths, or a known path with another method).
class ErrorsController < ActionController::API
  def not_found
    render json: { status: 404, error: "Not Found" }, status: :not_found
  end
end
