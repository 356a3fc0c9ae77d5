class ApplicationController < ActionController::API
  include ActionController::HttpAuthentication::Token::ControllerMethods

  # Error body: the shape Rails itself renders for JSON requests
  # (ActionDispatch::PublicExceptions): {"status": 404, "error": "Not Found"},
  # with the status code Rails assigns to each exception class.
  rescue_from ActiveRecord::RecordNotFound,
              ActionController::ParameterMissing,
              ActionController::BadRequest,
              ActionDispatch::Http::Parameters::ParseError,
              with: :render_exception

  # Validation failures: 422 with the model's errors, as Rails' API scaffold does.
  rescue_from ActiveRecord::RecordInvalid do |exception|
    render json: exception.record.errors, status: :unprocessable_entity
  end

  before_action :authenticate_account!

  attr_reader :current_account

  private

  # Every operation needs "Authorization: Bearer <secret API key>".
  def authenticate_account!
    @current_account = authenticate_with_http_token { |key, _options| Account.authenticate(key) }
    if @current_account.nil? && Sandbox.defect?("no-auth") && request.authorization.nil?
      @current_account = Account.find_by(id: 1) # planted defect: no header at all => account 1
    end
    return if @current_account

    response.headers["WWW-Authenticate"] = %(Bearer realm="Application")
    render_error :unauthorized
  end

  # params.require(key) for a key that must hold a JSON object: a scalar there
  # (e.g. {"customer": "x"}) is treated like a missing parameter (400), instead of
  # failing on #permit.
  def require_object(key)
    value = params.require(key)
    raise ActionController::ParameterMissing, key unless value.is_a?(ActionController::Parameters)

    value
  end

  def render_exception(exception)
    render_error ActionDispatch::ExceptionWrapper.status_code_for_exception(exception.class.name)
  end

  def render_error(status)
    code = Rack::Utils.status_code(status)
    render json: { status: code, error: Rack::Utils::HTTP_STATUS_CODES.fetch(code) }, status: code
  end
end
