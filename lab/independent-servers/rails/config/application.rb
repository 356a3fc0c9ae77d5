require_relative "boot"

require "rails"
# Only the frameworks this API needs.
require "active_model/railtie"
require "active_record/railtie"
require "action_controller/railtie"

Bundler.require(*Rails.groups)

module PaymentSandbox
  class Application < Rails::Application
    config.load_defaults 6.1

    # API-only application: no views, cookies, sessions or browser middleware.
    config.api_only = true

    config.time_zone = "UTC"
    config.active_record.default_timezone = :utc
  end
end
