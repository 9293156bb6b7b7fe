; Ruby, on top of the generic rule (spec `generic_rule`: classes, modules, methods,
; singleton methods): what it cannot name.
; Capture names: see workbench/languages/__init__.py.

; Constants (`ALLOWED = %w[GET HEAD].freeze`, `Rack::VERSION = [1, 3]`) of a file, class or
; module.
(assignment left: (constant) @name) @definition.constant
(assignment left: (scope_resolution name: (constant) @name)) @definition.constant

; `attr_reader :app, :body` / `attr_accessor` / `attr_writer`: one property per name (spec
; `name_strip`: `:app` is named `app`).
(call
  method: (identifier) @_m (#any-of? @_m "attr_reader" "attr_writer" "attr_accessor")
  arguments: (argument_list (simple_symbol) @name)) @definition.property

; `alias new_name old_name` / `alias_method :new_name, :old_name`: a method of that name.
(alias name: (_) @name) @definition.function
(call
  method: (identifier) @_m (#eq? @_m "alias_method")
  arguments: (argument_list . (simple_symbol) @name)) @definition.function
