; Rust: items, impl blocks named by their type, trait signatures, attributes, calls, `use`.
; Capture names: see workbench/languages/__init__.py.

; ---------------------------------------------------------------- items

(function_item name: (identifier) @name body: (block) @body) @definition.function
; Closures are symbols of kind `lambda`, named `<lambdaN>` by extract.py.
(closure_expression parameters: (closure_parameters) @name body: (_) @body) @definition.lambda
; Trait method signatures and extern fns (kind "method" inside a trait).
(function_signature_item name: (identifier) @name) @declaration.function

(struct_item name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
; Tuple and unit structs: the signature is the whole item (`pub struct Meters(f64)`).
(struct_item name: (type_identifier) @name body: (ordered_field_declaration_list)) @definition.struct
(struct_item name: (type_identifier) @name !body) @definition.struct
(union_item name: (type_identifier) @name body: (_) @body) @definition.union
(enum_item name: (type_identifier) @name body: (enum_variant_list) @body) @definition.enum
(trait_item name: (type_identifier) @name body: (declaration_list) @body) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(macro_definition name: (identifier) @name (macro_rule) @body) @definition.macro
(mod_item name: (identifier) @name body: (declaration_list) @body) @definition.module
(mod_item name: (identifier) @name !body) @declaration.module

; Enum variants (`Circle`, `Rect { w: f64 }`).
(enum_variant name: (identifier) @name) @definition.enum_member

; `impl Circle` and `impl Shape for Circle` are named by their type, so their methods
; read `<module>.Circle.area`.
(impl_item
  type: [(type_identifier) @name
         (scoped_type_identifier) @name
         (generic_type type: [(type_identifier) (scoped_type_identifier)] @name)
         (reference_type type: [(type_identifier) (scoped_type_identifier)] @name)
         (reference_type type: (generic_type type: [(type_identifier) (scoped_type_identifier)] @name))]
  body: (declaration_list) @body) @definition.impl

; Struct and union fields.
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)

; ---------------------------------------------------------------- attributes
; `#[derive(..)]` / `#[test]` lines directly above an item belong to it (all of them).

((attribute_item)+ @decorator . (function_item name: (identifier) @name) @definition.function)
((attribute_item)+ @decorator . (function_signature_item name: (identifier) @name) @declaration.function)
((attribute_item)+ @decorator . (struct_item name: (type_identifier) @name) @definition.struct)
((attribute_item)+ @decorator . (union_item name: (type_identifier) @name) @definition.union)
((attribute_item)+ @decorator . (enum_item name: (type_identifier) @name) @definition.enum)
((attribute_item)+ @decorator . (trait_item name: (type_identifier) @name) @definition.trait)
((attribute_item)+ @decorator . (type_item name: (type_identifier) @name) @definition.type)
((attribute_item)+ @decorator . (const_item name: (identifier) @name) @definition.constant)
((attribute_item)+ @decorator . (static_item name: (identifier) @name) @definition.variable)
((attribute_item)+ @decorator . (macro_definition name: (identifier) @name) @definition.macro)
((attribute_item)+ @decorator . (mod_item name: (identifier) @name body: (_)) @definition.module)
((attribute_item)+ @decorator . (mod_item name: (identifier) @name !body) @declaration.module)
((attribute_item)+ @decorator
  .
  (impl_item
    type: [(type_identifier) @name
           (scoped_type_identifier) @name
           (generic_type type: [(type_identifier) (scoped_type_identifier)] @name)
           (reference_type type: [(type_identifier) (scoped_type_identifier)] @name)
           (reference_type type: (generic_type type: [(type_identifier) (scoped_type_identifier)] @name))]) @definition.impl)

; ---------------------------------------------------------------- heritage

; `impl Trait for Type` implements Trait; `trait A: B + C` inherits B and C.
(impl_item
  trait: [(type_identifier) (scoped_type_identifier)
          (generic_type type: [(type_identifier) (scoped_type_identifier)])] @reference.implements
  type: [(type_identifier) @name
         (scoped_type_identifier) @name
         (generic_type type: [(type_identifier) (scoped_type_identifier)] @name)
         (reference_type type: [(type_identifier) (scoped_type_identifier)] @name)
         (reference_type type: (generic_type type: [(type_identifier) (scoped_type_identifier)] @name))])
(trait_item
  name: (type_identifier) @name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @reference.inherits))
(trait_item
  name: (type_identifier) @name
  bounds: (trait_bounds (generic_type type: [(type_identifier) (scoped_type_identifier)] @reference.inherits)))

; ---------------------------------------------------------------- calls

; `foo()`, `Type::new()`, `self.area()`, `x.m()`: the callee as written.
(call_expression
  function: [(identifier) (scoped_identifier)
             (field_expression value: [(identifier) (self) (field_expression) (scoped_identifier)
                                       (index_expression)])] @reference.call)
; A call on a computed receiver (`a.b().c()`, `x?.m()`): just the method name.
(call_expression
  function: (field_expression
    value: [(call_expression) (parenthesized_expression) (macro_invocation) (try_expression)
            (await_expression) (reference_expression) (struct_expression) (array_expression)
            (string_literal) (tuple_expression)]
    field: (field_identifier) @reference.call))
; `foo::<T>()`.
(call_expression function: (generic_function function: (_) @reference.call))
; Calls written in a macro's arguments (`println!("{}", f(x))`, `assert!(s.ok())`,
; `format!("{}", util::show(x))`): the parser leaves them as tokens; a name, `a.name` or
; `a::name` right before a parenthesised group, after `(` or an operator (not after `.`,
; which is a call on a computed receiver).
(macro_invocation
  (token_tree
    ["(" "[" "," "=" "!" "&" "+" "-" "*" "/" "<" ">" "==" "!=" "&&" "||"] .
    (identifier) @reference.call .
    (token_tree . "(")))
(macro_invocation
  (token_tree
    ["(" "[" "," "=" "!" "&" "+" "-" "*" "/" "<" ">" "==" "!=" "&&" "||"] .
    [(identifier) (self)] @reference.call . ["." "::"] . (identifier) @reference.call .
    (token_tree . "(")))
; Macro invocations as written, `shapes!` / `println!` (the `!` keeps them apart from a
; function or module of the same name).
(macro_invocation macro: [(identifier) (scoped_identifier)] @reference.call . "!" @reference.call)

; ---------------------------------------------------------------- imports
; `use a::b::C;` -> module a::b, name C. A use list gives one row per element.

(use_declaration argument: (identifier) @import.name) @import
(use_declaration argument: (scoped_identifier path: (_) @import.module name: (_) @import.name)) @import
(use_declaration
  argument: (use_as_clause
    path: (scoped_identifier path: (_) @import.module name: (_) @import.name)
    alias: (_) @import.alias)) @import
(use_declaration argument: (use_as_clause path: (identifier) @import.name alias: (_) @import.alias)) @import
(use_declaration argument: (use_wildcard (_) @import.module "*" @import.name)) @import
(use_declaration
  argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list [(identifier) (scoped_identifier) (self) (use_wildcard) (scoped_use_list)] @import.name))) @import
(use_declaration
  argument: (scoped_use_list
    path: (_) @import.module
    list: (use_list (use_as_clause path: (_) @import.name alias: (_) @import.alias)))) @import

; ---------------------------------------------------------------- comments (docs)

(line_comment) @comment
(block_comment) @comment

; --- call-graph captures (`bindings` rows read by workbench/resolve/; see docs/schema.md)
(let_declaration pattern: (identifier) @bind.target type: (_) @bind.value) @bind.declare
(let_declaration pattern: (identifier) @bind.target value: (_) @bind.value) @bind.assign
(assignment_expression left: [(identifier) (field_expression)] @bind.target right: (_) @bind.value) @bind.assign
(return_expression (_) @bind.value) @bind.return
; Functions and closures passed as arguments (`apply(f, x)`, `twice(|v| g(v), a)`).
(call_expression function: (_) @bind.target
  arguments: (arguments [(identifier) (scoped_identifier) (closure_expression)] @bind.value)) @bind.arg
; A call on a computed receiver (`Foo::new().run()`): the receiver, so the method can be resolved.
(call_expression
  function: (field_expression
    value: [(call_expression) (parenthesized_expression) (struct_expression)] @bind.value
    field: (field_identifier) @bind.target @bind.receiver))
