; PHP, on top of the generic rule (spec `generic_rule`: classes, interfaces, traits, enums,
; functions, methods, namespaces): what it cannot name.
; Capture names: see workbench/languages/__init__.py.

; `const TOP = 1;` and class constants (`public const LEFT = 'l', RIGHT = 'r';`): one
; symbol per name.
(const_declaration (const_element (name) @name)) @definition.constant
; `define('NAME', value)` at the top of a file
(program
  (expression_statement
    (function_call_expression
      function: (name) @_f (#eq? @_f "define")
      arguments: (arguments . (argument [(string (string_content) @name)
                                         (encapsed_string (string_content) @name)]))) @definition.constant))

; Properties (`private ?int $active = null;`, `protected static $x, $y;`), named without
; the `$`.
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
