; Lua, on top of the generic rule (spec `generic_rule`: `function f()`, `function M.f()`,
; `function M:m()`, `local function f()`): functions written as values.
; Capture names: see workbench/languages/__init__.py.

; `M.k = function(x) .. end`, `f = function() .. end` (nested in the function around it,
; like `local function`)
(assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @name .)
  (expression_list . value: (function_definition) .)) @definition.function
; `local lf = function() .. end`
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @name .)
    (expression_list . value: (function_definition) .))) @definition.function
; a function in a table constructor: `{ column_names = function(self) .. end }`
(field name: (identifier) @name value: (function_definition)) @definition.function
