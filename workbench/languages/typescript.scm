; inherits: ecma
; TypeScript-only rules (also used by tsx.scm); the shared JS/TS rules are in ecma.scm.

; ---------------------------------------------------------------- classes and members

(abstract_class_declaration name: (_) @name body: (class_body) @body) @definition.class
(abstract_class_declaration decorator: (decorator) @decorator name: (_) @name) @definition.class
(export_statement
  declaration: (abstract_class_declaration name: (_) @name body: (class_body) @body)) @definition.class
(export_statement
  decorator: (decorator) @decorator
  declaration: (abstract_class_declaration name: (_) @name)) @definition.class

; Method decorators are siblings before the method in TypeScript's class_body.
(class_body
  (decorator)+ @decorator
  .
  (method_definition name: (_) @name body: (statement_block) @body) @definition.function)
(class_body (abstract_method_signature name: (_) @name) @declaration.method)
(class_body (method_signature name: (_) @name) @declaration.method)

; Fields (`public tags: string[] = []`); their decorators are inside the node.
(class_body (public_field_definition name: (_) @name) @definition.field)
(class_body (public_field_definition decorator: (decorator) @decorator name: (_) @name) @definition.field)

; Ambient declarations (`declare const x: T;`, `export declare let y: U;`, `declare var z;`),
; the bulk of a `.d.ts` file.
(ambient_declaration (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name))) @declaration.constant
(ambient_declaration (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name))) @declaration.variable
(ambient_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @declaration.variable
(export_statement
  declaration: (ambient_declaration (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)))) @declaration.constant
(export_statement
  declaration: (ambient_declaration (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name)))) @declaration.variable
(export_statement
  declaration: (ambient_declaration (variable_declaration (variable_declarator name: (identifier) @name)))) @declaration.variable

; ... and inside a declared namespace (`declare namespace util { const find: F; }`).
(internal_module body: (statement_block
  (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name !value)) @declaration.constant))
(internal_module body: (statement_block
  (export_statement
    declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name !value))) @declaration.constant))

;  ... and with a value (`export const keys: F = cond ? a : b` in `namespace util {}`); values
; that are functions are functions (ecma.scm).
(internal_module body: (statement_block
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(object) (array) (number) (string) (template_string) (true) (false) (null)
              (undefined) (identifier) (member_expression) (subscript_expression)
              (new_expression) (binary_expression) (unary_expression) (ternary_expression)
              (regex) (await_expression) (parenthesized_expression) (call_expression)
              (as_expression) (satisfies_expression) (non_null_expression)])) @definition.constant))
(internal_module body: (statement_block
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(object) (array) (number) (string) (template_string) (true) (false) (null)
                (undefined) (identifier) (member_expression) (subscript_expression)
                (new_expression) (binary_expression) (unary_expression) (ternary_expression)
                (regex) (await_expression) (parenthesized_expression) (call_expression)
                (as_expression) (satisfies_expression) (non_null_expression)]))) @definition.constant))

; Overload signatures and `declare function`.
(function_signature name: (identifier) @name) @declaration.function
(export_statement declaration: (function_signature name: (identifier) @name)) @declaration.function

; ---------------------------------------------------------------- types

(interface_declaration name: (_) @name body: (interface_body) @body) @definition.interface
(export_statement
  declaration: (interface_declaration name: (_) @name body: (interface_body) @body)) @definition.interface
(interface_body (method_signature name: (_) @name) @declaration.method)
(interface_body (property_signature name: (_) @name) @declaration.field)
; A construct signature (`new (def: D): T;`) is the interface's method `new`.
(interface_body (construct_signature "new" @name) @declaration.method)

(type_alias_declaration name: (_) @name) @definition.type
(export_statement declaration: (type_alias_declaration name: (_) @name)) @definition.type

(enum_declaration name: (_) @name body: (enum_body) @body) @definition.enum
(export_statement
  declaration: (enum_declaration name: (_) @name body: (enum_body) @body)) @definition.enum

; Enum members (`A`, `B = 2`): shown with their enum in outlines.
(enum_body name: (property_identifier) @name @definition.enum_member)
(enum_body (enum_assignment name: (property_identifier) @name) @definition.enum_member)

; `namespace N { ... }` / `module N { ... }`.
(internal_module name: (_) @name body: (statement_block) @body) @definition.namespace
(export_statement
  declaration: (internal_module name: (_) @name body: (statement_block) @body)) @definition.namespace

; Module constants whose value is a TypeScript-only expression (`x as T`, `x satisfies T`, `x!`).
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(as_expression) (satisfies_expression) (non_null_expression)])) @definition.constant)
(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(as_expression) (satisfies_expression) (non_null_expression)]))) @definition.constant)

; ---------------------------------------------------------------- heritage

(_
  name: (_) @name
  (class_heritage (extends_clause value: (_) @reference.inherits)))
(_
  name: (_) @name
  (class_heritage (implements_clause (_) @reference.implements)))
(interface_declaration
  name: (_) @name
  (extends_type_clause type: (_) @reference.inherits))

; `foo!.bar()` / `(x as T).m()`
(call_expression
  function: (member_expression object: (non_null_expression)) @reference.call)
(call_expression
  function: (member_expression object: (as_expression) property: (_) @reference.call))

; `import type {A} from 'm'` is an import_statement too (covered by ecma.scm).

; --- call-graph captures (shared ones in ecma.scm)
(public_field_definition name: (_) @bind.target value: (_) @bind.value) @bind.assign
(public_field_definition name: (_) @bind.target type: (type_annotation (_) @bind.value)) @bind.declare
(variable_declarator name: (identifier) @bind.target type: (type_annotation (_) @bind.value)) @bind.declare
; constructor parameter properties (`constructor(private repo: Repo)`) are fields
(method_definition
  parameters: (formal_parameters
    (required_parameter (accessibility_modifier) pattern: (identifier) @bind.target
                        type: (type_annotation (_) @bind.value)))) @bind.declare
