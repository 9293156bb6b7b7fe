; Python: definitions, docstrings, calls, imports, bases.
; Capture names follow tree-sitter's tags.scm convention (see workbench/languages/__init__.py).

(function_definition
  name: (identifier) @name
  body: (block) @body) @definition.function

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

; Decorated definitions span their decorators (the wider node wins for the same @name).
(decorated_definition
  (decorator) @decorator
  definition: (function_definition name: (identifier) @name body: (block) @body)) @definition.function

(decorated_definition
  (decorator) @decorator
  definition: (class_definition name: (identifier) @name body: (block) @body)) @definition.class

; Docstrings: the first statement of a body, or of the module.
(function_definition name: (identifier) @name body: (block . (string) @doc))
(class_definition name: (identifier) @name body: (block . (string) @doc))
(module . (string) @doc.module)

; Class-level fields and module variables (plain, annotated and chained assignments).
(class_definition
  body: (block (assignment left: (identifier) @name) @definition.field))
(class_definition
  body: (block (assignment left: (pattern_list (identifier) @name)) @definition.field))
(module (assignment left: (identifier) @name) @definition.variable)
(module (assignment left: (pattern_list (identifier) @name)) @definition.variable)
(module (assignment right: (assignment left: (identifier) @name)) @definition.variable)

; Bases of a class.
(class_definition
  name: (identifier) @name
  superclasses: (argument_list [(identifier) (attribute)] @reference.inherits))

; Calls (the callee as written) and decorators used without a call.
(call function: (_) @reference.call)
(decorator [(identifier) (attribute)] @reference.call)

; Imports.
(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.name) @import
