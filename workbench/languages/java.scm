; Java: types, members, annotations, calls, imports, heritage.
; Capture names: see workbench/languages/__init__.py. Qualnames start at the `package`.

(package_declaration [(identifier) (scoped_identifier)] @package)

; ---------------------------------------------------------------- types

(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(interface_declaration name: (identifier) @name body: (interface_body) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(record_declaration name: (identifier) @name body: (class_body) @body) @definition.record
(annotation_type_declaration name: (identifier) @name body: (annotation_type_body) @body) @definition.interface

; Annotations are part of the node (inside `modifiers`): as @decorator they are listed
; with the symbol and the signature starts after them.
(class_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name) @definition.class
(interface_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name) @definition.interface
(enum_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name) @definition.enum
(record_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name) @definition.record
(annotation_type_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name) @definition.interface

; Enum constants (`FOOD("Food", 0.07)`).
(enum_constant name: (identifier) @name) @definition.enum_member

; ---------------------------------------------------------------- members

(method_declaration name: (identifier) @name body: (block) @body) @definition.method
(method_declaration name: (identifier) @name !body) @declaration.method
(annotation_type_element_declaration name: (identifier) @name) @declaration.method
(constructor_declaration name: (identifier) @name body: (constructor_body) @body) @definition.method
(compact_constructor_declaration name: (identifier) @name body: (block) @body) @definition.method
; Lambdas are symbols of kind `lambda`, named `<lambdaN>` by extract.py.
(lambda_expression parameters: (_) @name body: (_) @body) @definition.lambda
(method_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name body: (block)) @definition.method
(method_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name !body) @declaration.method
(constructor_declaration (modifiers [(annotation) (marker_annotation)] @decorator) name: (identifier) @name) @definition.method

; Fields and interface constants: one symbol per declarator.
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(field_declaration
  (modifiers [(annotation) (marker_annotation)] @decorator)
  declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; ---------------------------------------------------------------- heritage

(class_declaration
  name: (identifier) @name
  superclass: (superclass [(type_identifier) (scoped_type_identifier)] @reference.inherits))
(class_declaration
  name: (identifier) @name
  superclass: (superclass
    (generic_type [(type_identifier) (scoped_type_identifier)] @reference.inherits)))
(_
  name: (identifier) @name
  interfaces: (super_interfaces
    (type_list [(type_identifier) (scoped_type_identifier)] @reference.implements)))
(_
  name: (identifier) @name
  interfaces: (super_interfaces
    (type_list (generic_type [(type_identifier) (scoped_type_identifier)] @reference.implements))))
(interface_declaration
  name: (identifier) @name
  (extends_interfaces
    (type_list [(type_identifier) (scoped_type_identifier)] @reference.inherits)))
(interface_declaration
  name: (identifier) @name
  (extends_interfaces
    (type_list (generic_type [(type_identifier) (scoped_type_identifier)] @reference.inherits))))

; ---------------------------------------------------------------- calls

; `m()`; `obj.m()`, `Type.m()`, `this.m()`, `System.out.println()` as written (two
; captures: the callee spans from the receiver to the name).
(method_invocation !object name: (identifier) @reference.call)
(method_invocation
  object: [(identifier) (this) (super) (field_access)] @reference.call
  name: (identifier) @reference.call)
; A call on a computed receiver (`a.b().c()`, `new X().m()`): just the method name.
(method_invocation
  object: [(method_invocation) (object_creation_expression) (parenthesized_expression)
           (array_access) (string_literal) (cast_expression) (class_literal)]
  name: (identifier) @reference.call)
; `new T(...)` is a call to `T`; `this(...)` / `super(...)` in constructors.
(object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @reference.call)
(object_creation_expression
  type: (generic_type [(type_identifier) (scoped_type_identifier)] @reference.call))
(explicit_constructor_invocation constructor: [(this) (super)] @reference.call)

; ---------------------------------------------------------------- imports

; import a.b.C;  import static a.b.C.m;  -> module a.b(.C), name C / m
(import_declaration
  (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
; import a.b.*;  import static a.b.C.*;  -> name "*"
(import_declaration
  [(identifier) (scoped_identifier)] @import.module
  (asterisk) @import.name) @import

; ---------------------------------------------------------------- comments (docs)

(block_comment) @comment
(line_comment) @comment

; --- call-graph captures (`bindings` rows read by workbench/resolve/; see docs/schema.md)
(local_variable_declaration type: (_) @bind.value
  declarator: (variable_declarator name: (identifier) @bind.target)) @bind.declare
(local_variable_declaration
  declarator: (variable_declarator name: (identifier) @bind.target value: (_) @bind.value)) @bind.assign
(field_declaration
  declarator: (variable_declarator name: (identifier) @bind.target value: (_) @bind.value)) @bind.assign
(assignment_expression left: [(identifier) (field_access)] @bind.target right: (_) @bind.value) @bind.assign
(return_statement (_) @bind.value) @bind.return
(enhanced_for_statement type: (_) @bind.value name: (identifier) @bind.target) @bind.declare
; A call on a computed receiver (`make().run()`): the receiver, so the method can be resolved.
(method_invocation
  object: [(method_invocation) (object_creation_expression) (parenthesized_expression)
           (array_access) (string_literal) (cast_expression)] @bind.value
  name: (identifier) @bind.target @bind.receiver)
; Functions passed as arguments (`twice(v -> inc(v), 1)`, `run(task)`).
(method_invocation name: (identifier) @bind.target
  arguments: (argument_list [(identifier) (lambda_expression) (method_reference)] @bind.value)) @bind.arg
