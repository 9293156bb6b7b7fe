"""Ruby extraction: the generic rule plus workbench/languages/ruby.scm (constants,
attribute accessors, aliases), on a snippet in the shapes of a real Rack-style library."""
from __future__ import annotations

from extract_expect import snippet

SOURCE = """\
module Rack
  VERSION = [1, 3]
  class Request
    ALLOWED_SCHEMES = %w[https http].freeze
    attr_reader :env, :params
    attr_accessor :ip_filter

    def initialize(env)
      @env = env
      local = CONTENT_TYPE == env['x']
    end

    def has_key?(k) = env.key?(k)
    alias key? has_key?
    alias_method :member?, :has_key?
  end
end
Rack::RELEASE = "3.0"
"""


def test_constants_accessors_and_aliases():
    ex = snippet("lib/rack/request.rb", SOURCE, "ruby")
    rows = [(s["kind"], s["qualname"].removeprefix("lib.rack.request."), s["start_line"])
            for s in ex.symbols[1:]]
    assert rows == [
        ("namespace", "Rack", 1),
        ("constant", "Rack.VERSION", 2),
        ("class", "Rack.Request", 3),
        ("constant", "Rack.Request.ALLOWED_SCHEMES", 4),
        ("property", "Rack.Request.env", 5), ("property", "Rack.Request.params", 5),
        ("property", "Rack.Request.ip_filter", 6),
        ("method", "Rack.Request.initialize", 8),     # a comparison with a constant defines none
        ("method", "Rack.Request.has_key?", 13),
        ("method", "Rack.Request.key?", 14),
        ("method", "Rack.Request.member?", 15),
        ("constant", "RELEASE", 18),
    ]
