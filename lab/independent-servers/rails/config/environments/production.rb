require "securerandom"

Rails.application.configure do
  config.cache_classes = true
  config.eager_load = true
  config.consider_all_requests_local = false

  # No cookies or sessions are used; the value only has to exist.
  config.secret_key_base = ENV.fetch("SECRET_KEY_BASE") { SecureRandom.hex(64) }

  config.log_level = ENV.fetch("RAILS_LOG_LEVEL", "warn").to_sym
  config.log_tags = [:request_id]
  config.logger = ActiveSupport::TaggedLogging.new(ActiveSupport::Logger.new($stdout))

  config.active_support.report_deprecations = false if config.active_support.respond_to?(:report_deprecations=)
  config.active_support.deprecation = :silence
  config.i18n.fallbacks = true

  config.active_record.dump_schema_after_migration = false
end
