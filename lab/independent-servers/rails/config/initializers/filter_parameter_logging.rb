Rails.application.config.filter_parameters += [:token, :api_key, :secret]
