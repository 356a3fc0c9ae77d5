module V1
  class TransactionsController < ApplicationController
    # The body's nested objects (currency, customer, custom_metadata) are not
    # columns, so they are listed for the JSON root wrapping explicitly.
    wrap_parameters :transaction,
                    include: %i[description amount currency callback_url custom_metadata customer mode],
                    format: [:json]

    # POST /v1/transactions
    def create
      attributes = transaction_params
      @transaction = current_account.transactions.new(
        attributes.slice(:description, :amount, :callback_url, :mode, :custom_metadata)
      )
      @transaction.currency = find_currency(attributes[:currency])
      @transaction.customer = find_or_build_customer(attributes[:customer])

      if @transaction.save
        render json: @transaction, status: :created
      else
        render json: @transaction.errors, status: :unprocessable_entity
      end
    end

    # POST /v1/transactions/:id/token
    def token
      @transaction = current_account.transactions.find(params[:id])
      token = @transaction.ensure_token!
      render json: { token: token, url: payment_link(token) }
    end

    # POST /v1/transactions/:mode
    def send_payment
      payload = params.permit(:token, phone_number: [:number, :country])
      token = payload.require(:token)
      @transaction = current_account.transactions.find_by!(token: token.to_s)

      intent = nil
      Transaction.transaction do
        @transaction.lock! # re-read inside the (immediate) database transaction
        payment_method = payment_method_for(payload[:phone_number])
        intent = current_account.payment_intents.new(
          payment_transaction: @transaction,
          currency: @transaction.currency,
          amount: @transaction.amount,
          mode: params[:mode],
          payment_method: payment_method,
          status: "sent",
          approved_at: Time.current
        )
        intent.save!
        @transaction.update!(status: "approved", mode: intent.mode)
        Balance.credit!(current_account, intent.mode, intent.amount)
      end

      CallbackNotifier.transaction_updated(@transaction)
      render json: [intent]
    end

    private

    # The link points at this server's own (public, key-less) checkout page, on the
    # address it listens on -- not on the request's Host header.
    def payment_link(token)
      checkout_url(token: token, protocol: "http", host: "127.0.0.1", port: ENV.fetch("PORT", request.port))
    end

    def transaction_params
      require_object(:transaction).permit(
        :description, :amount, :callback_url, :mode,
        currency: [:iso],
        customer: [:id, :email, :firstname, :lastname, { phone_number: [:number, :country] }],
        custom_metadata: {}
      )
    end

    # currency.iso picks one of the account's currencies; without it, the default one.
    def find_currency(currency)
      iso = currency.is_a?(ActionController::Parameters) ? currency[:iso] : nil
      return current_account.default_currency if iso.nil?

      current_account.currencies.find_by(iso: iso.to_s.upcase)
    end

    # customer.id refers to an existing customer of the account (404 otherwise);
    # a customer object without id creates a new customer.
    def find_or_build_customer(customer)
      return nil if customer.blank? || !customer.is_a?(ActionController::Parameters)
      return current_account.customers.find(customer[:id]) unless customer[:id].nil?

      current_account.customers.new(customer.except(:id))
    end

    # phone_number in the body: validated (422 when malformed). Without it the
    # transaction's customer's phone number is used when it is a valid one.
    def payment_method_for(phone)
      if phone.is_a?(ActionController::Parameters) && phone.to_h.any?
        method = current_account.payment_methods.find_or_initialize_by(number: phone[:number].to_s, country: phone[:country].to_s)
        unless method.save
          errors = method.errors.to_hash.transform_keys { |key| "phone_number.#{key}" }
          raise PhoneNumberInvalid, errors
        end
        return method
      end

      saved = @transaction.customer&.phone_number
      return nil unless saved.is_a?(Hash)

      method = current_account.payment_methods.find_or_initialize_by(number: saved["number"].to_s, country: saved["country"].to_s.upcase)
      method.save ? method : nil
    end

    class PhoneNumberInvalid < StandardError
      attr_reader :errors

      def initialize(errors)
        @errors = errors
        super("invalid phone_number")
      end
    end

    rescue_from PhoneNumberInvalid do |exception|
      render json: exception.errors, status: :unprocessable_entity
    end
  end
end
