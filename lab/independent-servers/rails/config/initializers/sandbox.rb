# Sandbox switches read from the environment at boot.
module Sandbox
  DEFECTS = %w[amount-plus-one no-auth delete-500 drop-callback-query].freeze

  # Exactly one planted defect, or none (empty / unset DEFECT).
  def self.defect
    @defect ||= ENV.fetch("DEFECT", "").strip
  end

  def self.defect?(name)
    defect == name
  end

  # Outbound callback requests are only made when CALLBACKS=on.
  def self.callbacks?
    ENV.fetch("CALLBACKS", "off").strip.downcase == "on"
  end
end

if Sandbox.defect.present? && !Sandbox::DEFECTS.include?(Sandbox.defect)
  warn "Unknown DEFECT=#{Sandbox.defect.inspect}; known: #{Sandbox::DEFECTS.join(', ')}"
end
