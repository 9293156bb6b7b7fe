; Go: functions, methods (receiver type as @qualifier), types, package-level consts and
; vars, calls, imports. Modules are directories (see the spec).
; Capture names: see workbench/languages/__init__.py.

; ---------------------------------------------------------------- functions and methods

(function_declaration name: (identifier) @name body: (block) @body) @definition.function
(function_declaration name: (identifier) @name !body) @declaration.function
; Function literals are symbols of kind `lambda`, named `<lambdaN>` by extract.py.
(func_literal "func" @name body: (block) @body) @definition.lambda

; `func (s *Store) Get(...)`: qualname `<dir>.Store.Get`; generic receivers `(s *Stack[T])`.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @qualifier
             (pointer_type (type_identifier) @qualifier)
             (generic_type type: (type_identifier) @qualifier)
             (pointer_type (generic_type type: (type_identifier) @qualifier))]))
  name: (field_identifier) @name
  body: (block) @body) @definition.method

; ---------------------------------------------------------------- types
; A grouped `type ( ... )` spans each spec; a single declaration spans `type ...` too
; (the wider node wins; grouped ones are told apart by their text, `type (`).

(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct
((type_declaration (type_spec name: (type_identifier) @name type: (struct_type))) @definition.struct
 (#not-match? @definition.struct "^type\\s*\\("))

; Interfaces: the signature ends where the first element starts (`type Repo interface`).
(type_spec name: (type_identifier) @name type: (interface_type . (_) @body)) @definition.interface
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
((type_declaration (type_spec name: (type_identifier) @name type: (interface_type))) @definition.interface
 (#not-match? @definition.interface "^type\\s*\\("))

(type_spec
  name: (type_identifier) @name
  type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type)
         (array_type) (map_type) (channel_type) (function_type)]) @definition.type
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type)
           (array_type) (map_type) (channel_type) (function_type)])) @definition.type
 (#not-match? @definition.type "^type\\s*\\("))
(type_alias name: (type_identifier) @name) @definition.type
((type_declaration (type_alias name: (type_identifier) @name)) @definition.type
 (#not-match? @definition.type "^type\\s*\\("))

; Struct fields (embedded fields have no name and are left out); interface methods.
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)
; Embedded fields (`struct { *Reader; io.Writer }`) promote their type's methods: bases.
(type_spec
  name: (type_identifier) @name
  type: (struct_type
    (field_declaration_list
      (field_declaration !name type: [(type_identifier) (qualified_type)] @reference.inherits))))
(interface_type (method_elem name: (field_identifier) @name) @declaration.method)

; ---------------------------------------------------------------- package-level consts and vars

(source_file (const_declaration (const_spec (identifier) @name (#not-eq? @name "_")) @definition.constant))
(source_file
  (const_declaration (const_spec (identifier) @name (#not-eq? @name "_"))) @definition.constant
  (#not-match? @definition.constant "^const\\s*\\("))
(source_file (var_declaration (var_spec name: (identifier) @name (#not-eq? @name "_")) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name (#not-eq? @name "_")) @definition.variable)))
(source_file
  (var_declaration (var_spec name: (identifier) @name (#not-eq? @name "_"))) @definition.variable
  (#not-match? @definition.variable "^var\\s*\\("))

; ---------------------------------------------------------------- calls

; `F()`, `pkg.F()`, `x.M()`, `s.backend.Load()`: the callee as written.
(call_expression
  function: [(identifier)
             (selector_expression operand: [(identifier) (selector_expression) (index_expression)])
            ] @reference.call)
; A call on a computed operand (`w.Header().Set()`): just the method name.
(call_expression
  function: (selector_expression
    operand: [(call_expression) (parenthesized_expression) (composite_literal)
              (type_assertion_expression) (type_conversion_expression)]
    field: (field_identifier) @reference.call))
; Generic instantiation `Map[int](xs)`.
(type_conversion_expression type: (generic_type type: (_) @reference.call))

; ---------------------------------------------------------------- imports

; module = the import path; alias when named (`f "fmt"`, `. "x"`, `_ "x"`).
(import_spec name: (_)? @import.alias path: (_) @import.module) @import

; ---------------------------------------------------------------- comments (docs)

(comment) @comment

; --- call-graph captures (`bindings` rows read by workbench/resolve/; see docs/schema.md)
(short_var_declaration left: (expression_list . (identifier) @bind.target)
  right: (expression_list . (_) @bind.value)) @bind.assign
(var_spec name: (identifier) @bind.target type: (_) @bind.value) @bind.declare
(var_spec name: (identifier) @bind.target value: (expression_list . (_) @bind.value)) @bind.assign
(assignment_statement left: (expression_list . (_) @bind.target)
  right: (expression_list . (_) @bind.value)) @bind.assign
(return_statement (expression_list . (_) @bind.value)) @bind.return
(call_expression function: (_) @bind.target
  arguments: (argument_list [(identifier) (selector_expression) (func_literal) (call_expression)] @bind.value)) @bind.arg
; A call on a computed operand (`w.Header().Set()`): the operand, so the method can be resolved.
(call_expression
  function: (selector_expression
    operand: [(call_expression) (parenthesized_expression) (composite_literal)
              (type_assertion_expression)] @bind.value
    field: (field_identifier) @bind.target @bind.receiver))
