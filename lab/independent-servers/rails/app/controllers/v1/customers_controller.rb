module V1
  class CustomersController < ApplicationController
    # POST /v1/customers (not in the reference; needed by the harness)
    def create
      @customer = current_account.customers.new(customer_params)

      if @customer.save
        render json: @customer, status: :created
      else
        render json: @customer.errors, status: :unprocessable_entity
      end
    end

    # DELETE /v1/customers/:id
    def destroy
      Customer.transaction do
        @customer = current_account.customers.find(params[:id])
        @customer.destroy!
      end
      head :no_content
    rescue ActiveRecord::RecordNotFound
      raise unless Sandbox.defect?("delete-500")

      render_error :internal_server_error # planted defect
    end

    private

    def customer_params
      require_object(:customer).permit(:email, :firstname, :lastname, phone_number: [:number, :country])
    end
  end
end
