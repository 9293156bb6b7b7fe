; Kotlin: classes, interfaces, enums, objects, functions, properties, calls, heritage.
; Capture names: see workbench/languages/__init__.py. The grammar has few fields: a
; declaration's name is its direct `type_identifier` / `simple_identifier` child.

; ---------------------------------------------------------------- types
; `class`, `interface` and `enum class` are all class_declaration: the keyword tells them
; apart (text before the name; annotations with arguments come first).

((class_declaration (type_identifier) @name (class_body) @body) @definition.class
 (#not-match? @definition.class "^([^{]*\\s)?interface\\s"))
((class_declaration (type_identifier) @name) @definition.class
 (#not-match? @definition.class "^([^{]*\\s)?(interface|enum)\\s"))
((class_declaration (type_identifier) @name (class_body) @body) @definition.interface
 (#match? @definition.interface "^([^{]*\\s)?interface\\s"))
((class_declaration (type_identifier) @name) @definition.interface
 (#match? @definition.interface "^([^{]*\\s)?interface\\s"))
(class_declaration (type_identifier) @name (enum_class_body) @body) @definition.enum
(enum_class_body (enum_entry (simple_identifier) @name) @definition.enum_member)

; `object Registry {}`; a `companion object` without a name is named `Companion` (spec
; `node_labels`), as Kotlin itself names it.
(object_declaration (type_identifier) @name (class_body) @body) @definition.object
(object_declaration (type_identifier) @name) @definition.object
(companion_object (type_identifier) @name (class_body) @body) @definition.object
(companion_object "companion" @name "object" . (class_body) @body) @definition.object
(companion_object "companion" @name "object" . (delegation_specifier)) @definition.object

(type_alias (type_identifier) @name) @definition.type

; Annotations (`@Throws(..)`, `@JvmStatic`) are kept with the symbol.
(class_declaration (modifiers (annotation) @decorator) (type_identifier) @name) @definition.class
(function_declaration (modifiers (annotation) @decorator) (simple_identifier) @name) @definition.function

; ---------------------------------------------------------------- functions and properties
; `fun f() {..}`, `fun f() = expr`, `fun <T> List<T>.second(): T`; one without a body
; (interface, abstract) is a declaration (for the same node a definition wins).

(function_declaration (simple_identifier) @name (function_body) @body) @definition.function
(function_declaration (simple_identifier) @name) @declaration.function

; `val x = 1`, `var y: Int`, `const val TAG = ".."` in a file, class or object (not the
; locals of a function), and the `val`/`var` parameters of a primary constructor
; (`class P(val x: Int)`), which are properties of the class.
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.property)
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.property)
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.property

; ---------------------------------------------------------------- heritage

(class_declaration
  (type_identifier) @name
  (delegation_specifier [(user_type (type_identifier) @reference.inherits)
                         (constructor_invocation (user_type (type_identifier) @reference.inherits))]))
(object_declaration
  (type_identifier) @name
  (delegation_specifier [(user_type (type_identifier) @reference.inherits)
                         (constructor_invocation (user_type (type_identifier) @reference.inherits))]))

; ---------------------------------------------------------------- calls
; `f()`, `Foo()` (a constructor call), `obj.m()` / `a.b.c()` as written.

(call_expression . [(simple_identifier) (navigation_expression)] @reference.call)

; ---------------------------------------------------------------- comments (docs)

(line_comment) @comment
(multiline_comment) @comment
