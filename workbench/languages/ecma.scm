; Shared JavaScript / TypeScript / TSX rules (included by javascript.scm and typescript.scm
; through their `; inherits:` line). Only node types common to all three grammars here.
; Capture names: see workbench/languages/__init__.py.

; ---------------------------------------------------------------- functions

(function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function

; `export` / `export default` wrappers extend the symbol (the widest node wins).
(export_statement
  declaration: [(function_declaration name: (identifier) @name body: (statement_block) @body)
                (generator_function_declaration name: (identifier) @name body: (statement_block) @body)]) @definition.function

; Arrow functions and function expressions bound to a name: the symbol is the whole
; declaration (`export const f = (...) => ...`). Nested ones are nested functions.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (generator_function body: (_) @body)])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (generator_function body: (_) @body)])) @definition.function
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function body: (_) @body)
              (function_expression body: (_) @body)
              (generator_function body: (_) @body)]))) @definition.function

; CommonJS `exports.f = function () {}` / `module.exports.f = () => ...` at top level.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression property: (property_identifier) @name (#not-eq? @name "exports"))
      right: [(arrow_function body: (_) @body)
              (function_expression body: (_) @body)]) @definition.function))
; `module.exports = function build() {}`: the module is that function, named by its own name;
; an anonymous one is named `exports`.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression property: (property_identifier) @_exports (#eq? @_exports "exports"))
      right: (function_expression name: (identifier) @name body: (_) @body)) @definition.function))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression property: (property_identifier) @name (#eq? @name "exports"))
      right: [(arrow_function body: (_) @body)
              (function_expression !name body: (_) @body)]) @definition.function))

; Functions written in an object literal: `const api = { run() {...}, stop: () => {...} }`,
; `module.exports = { build() {...} }`. They nest in the symbol around the object (the
; constant `api`: qualname `api.run`), or in the module when there is none.
; A quoted key names its function by the string's content (`"Program:exit"(node) {}`).
(object (method_definition name: (property_identifier) @name body: (statement_block) @body) @definition.function)
(object (method_definition name: (string (string_fragment) @name) body: (statement_block) @body) @definition.function)
(object
  (pair
    key: [(property_identifier) @name (string (string_fragment) @name)]
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (generator_function body: (_) @body)]) @definition.function)

; A function assigned to a member or a variable inside a function (`nodes.Program =
; function (node) {}`, `this.onExit = () => {}`, `fix = function (fixer) {}`) nests in it.
(expression_statement
  (assignment_expression
    left: [(member_expression property: (property_identifier) @name (#not-eq? @name "exports"))
           (identifier) @name]
    right: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)]) @definition.function)

; ---------------------------------------------------------------- classes

(class_declaration name: (_) @name body: (class_body) @body) @definition.class
; A named class expression (`module.exports = class Cursor extends Base {}`, a class passed
; to a call) is a class wherever it stands.
(class name: (_) @name body: (class_body) @body) @definition.class
(class_declaration decorator: (decorator) @decorator name: (_) @name) @definition.class
(export_statement
  declaration: (class_declaration name: (_) @name body: (class_body) @body)) @definition.class
(export_statement
  decorator: (decorator) @decorator
  declaration: (class_declaration name: (_) @name)) @definition.class
(lexical_declaration
  (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @definition.class

; Methods (kind becomes "method" inside a class); constructors and accessors included.
(class_body (method_definition name: (_) @name body: (statement_block) @body) @definition.function)

; ---------------------------------------------------------------- module-level variables
; Top level only, and only values that are not functions (those are functions above).

(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(object) (array) (number) (string) (template_string) (true) (false) (null)
              (undefined) (identifier) (member_expression) (subscript_expression)
              (new_expression) (binary_expression) (unary_expression) (ternary_expression)
              (regex) (await_expression) (parenthesized_expression)
              (call_expression function: (_) @_callee (#not-eq? @_callee "require"))])) @definition.constant)
(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(object) (array) (number) (string) (template_string) (true) (false) (null)
                (undefined) (identifier) (member_expression) (subscript_expression)
                (new_expression) (binary_expression) (unary_expression) (ternary_expression)
                (regex) (await_expression) (parenthesized_expression)
                (call_expression function: (_) @_callee (#not-eq? @_callee "require"))]))) @definition.constant)
(program
  (lexical_declaration
    kind: "let"
    (variable_declarator
      name: (identifier) @name
      value: [(object) (array) (number) (string) (template_string) (true) (false) (null)
              (undefined) (identifier) (member_expression) (subscript_expression)
              (new_expression) (binary_expression) (unary_expression) (ternary_expression)
              (regex) (await_expression) (parenthesized_expression)
              (call_expression function: (_) @_callee (#not-eq? @_callee "require"))])) @definition.variable)
(program
  (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name !value)) @definition.variable)
(program
  (variable_declaration (variable_declarator name: (identifier) @name !value)) @definition.variable)
(program
  (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(object) (array) (number) (string) (template_string) (true) (false) (null)
              (undefined) (identifier) (member_expression) (subscript_expression)
              (new_expression) (binary_expression) (unary_expression) (ternary_expression)
              (regex) (await_expression) (parenthesized_expression)
              (call_expression function: (_) @_callee (#not-eq? @_callee "require"))])) @definition.variable)

; ---------------------------------------------------------------- calls

; `foo()`, `this.m()`, `a.b.c()`, `super(...)`: the callee as written.
(call_expression
  function: [(identifier) (super)
             (member_expression object: [(identifier) (this) (super) (member_expression)
                                         (subscript_expression)])] @reference.call)
; A call on a computed receiver (`f().then()`, `[...xs].map()`): just the method name.
(call_expression
  function: (member_expression
    object: [(call_expression) (array) (parenthesized_expression) (string) (template_string)
             (new_expression) (await_expression) (object) (regex) (number)]
    property: (_) @reference.call))
; A decorator used without a call (`@sealed`) is a call too.
(decorator [(identifier) (member_expression)] @reference.call)
; `new X()` is a call to `X`.
(new_expression constructor: [(identifier) (member_expression)] @reference.call)

; ---------------------------------------------------------------- imports

; import x from 'm'            -> name "default", alias x
(import_statement
  (import_clause (identifier) @import.alias)
  source: (string) @import.module
  (#set! import.name "default")) @import
; import {a as b, c} from 'm'
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string) @import.module) @import
; import * as ns from 'm'      -> name "*", alias ns
(import_statement
  (import_clause (namespace_import "*" @import.name (identifier) @import.alias))
  source: (string) @import.module) @import
; import 'm' (side effects only)
(import_statement . "import" . source: (string) @import.module) @import
; Re-exports: export {a as b} from 'm', export * from 'm', export * as ns from 'm'.
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (string) @import.module) @import
(export_statement . "export" . "*" @import.name . "from" source: (string) @import.module) @import
(export_statement
  (namespace_export "*" @import.name (_) @import.alias)
  source: (string) @import.module) @import
; CommonJS: const x = require('m'); const {a, b: c} = require('m').
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @_require (#eq? @_require "require")
    arguments: (arguments . (string) @import.module .))) @import
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression
    function: (identifier) @_require (#eq? @_require "require")
    arguments: (arguments . (string) @import.module .))) @import
(variable_declarator
  name: (object_pattern (pair_pattern key: (_) @import.name value: (identifier) @import.alias))
  value: (call_expression
    function: (identifier) @_require (#eq? @_require "require")
    arguments: (arguments . (string) @import.module .))) @import

; ---------------------------------------------------------------- comments (docs)

(comment) @comment

; --- call-graph captures (`bindings` rows read by workbench/resolve/; see
; docs/schema.md). `@bind.<kind>` anchors a row, `@bind.target` is the name bound,
; `@bind.value` the expression as written.
(variable_declarator name: (identifier) @bind.target value: (_) @bind.value) @bind.assign
(assignment_expression left: [(identifier) (member_expression)] @bind.target right: (_) @bind.value) @bind.assign
(variable_declarator name: (identifier) @bind.target value: (array (_) @bind.value)) @bind.element
(variable_declarator name: (identifier) @bind.target value: (object (pair value: (_) @bind.value))) @bind.element
(variable_declarator name: (identifier) @bind.target
  value: (object (shorthand_property_identifier) @bind.value)) @bind.element
(return_statement (_) @bind.value) @bind.return
(arrow_function body: [(identifier) (call_expression) (member_expression) (new_expression) (await_expression)
                       (parenthesized_expression) (arrow_function) (object) (array)] @bind.value @bind.return)
(yield_expression (_) @bind.value) @bind.yield
(for_in_statement left: (identifier) @bind.target right: (_) @bind.value) @bind.iter
(call_expression function: (_) @bind.target
  arguments: (arguments [(identifier) (member_expression) (call_expression) (new_expression)] @bind.value)) @bind.arg
; `export default expr;` and `export { a as b }` (without `from`).
(export_statement value: (_) @bind.value) @bind.export_default
(export_statement (export_clause (export_specifier name: (_) @bind.value alias: (_)? @bind.target)) !source) @bind.export
(new_expression constructor: (_) @bind.target
  arguments: (arguments [(identifier) (member_expression) (call_expression) (new_expression)] @bind.value)) @bind.arg
; A call on a computed receiver (`make().run()`): the receiver, so the method can be resolved.
(call_expression
  function: (member_expression
    object: [(call_expression) (new_expression) (parenthesized_expression) (await_expression)
             (array) (string) (template_string)] @bind.value
    property: (_) @bind.target @bind.receiver))
; `table[key](...)`: a call through a subscript is a call too.
(call_expression function: (subscript_expression) @reference.call)
