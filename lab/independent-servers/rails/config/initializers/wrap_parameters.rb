# Wrap JSON bodies in a root key named after the controller's model
# (the standard Rails API skeleton initializer).
ActiveSupport.on_load(:action_controller) do
  wrap_parameters format: [:json]
end
