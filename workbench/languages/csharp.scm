; C#: namespaces, types, members, attributes, calls, `using` directives, heritage.
; Capture names: see workbench/languages/__init__.py.

; ---------------------------------------------------------------- namespaces and types
; `namespace A.B { }` reads `A.B`; a file-scoped `namespace A.B;` holds the rest of the file.

(namespace_declaration name: (_) @name body: (declaration_list) @body) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace

(class_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @definition.struct
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list) @body) @definition.enum
(record_declaration name: (identifier) @name body: (declaration_list) @body) @definition.record
; `record Person(string Name);` has no body
(record_declaration name: (identifier) @name !body) @definition.record
(enum_member_declaration name: (identifier) @name) @definition.enum_member
; `delegate int Handler(object sender);` declares a type
(delegate_declaration name: (identifier) @name) @definition.type

; `[Serializable]` and other attribute lists are kept with the symbol.
(class_declaration (attribute_list) @decorator name: (identifier) @name) @definition.class
(struct_declaration (attribute_list) @decorator name: (identifier) @name) @definition.struct
(interface_declaration (attribute_list) @decorator name: (identifier) @name) @definition.interface
(enum_declaration (attribute_list) @decorator name: (identifier) @name) @definition.enum
(record_declaration (attribute_list) @decorator name: (identifier) @name) @definition.record
(delegate_declaration (attribute_list) @decorator name: (identifier) @name) @definition.type

; `using Info = Maybe<MethodInfo>;`: a type alias of the file (and an import, below).
(using_directive name: (identifier) @name) @definition.type

; ---------------------------------------------------------------- members
; Methods with a block or an expression body (`int Get() => x;`); abstract, interface and
; `extern` ones are declarations. `int IThing.Get()` is the method `Get`.

(method_declaration name: (identifier) @name body: (_) @body) @definition.method
(method_declaration name: (identifier) @name !body) @declaration.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(constructor_declaration name: (identifier) @name !body) @declaration.method
(destructor_declaration body: (_) @body) @name @definition.method
(local_function_statement name: (identifier) @name body: (_) @body) @definition.function
; `operator ==(A a, A b)` is named `operator ==`, `implicit operator int(A a)` `operator int`,
; a destructor `~Box` (spec `node_labels`)
(operator_declaration body: (_) @body) @name @definition.method
(operator_declaration !body) @name @declaration.method
(conversion_operator_declaration body: (_) @body) @name @definition.method
(conversion_operator_declaration !body) @name @declaration.method

(method_declaration (attribute_list) @decorator name: (identifier) @name body: (_)) @definition.method
(method_declaration (attribute_list) @decorator name: (identifier) @name !body) @declaration.method
(constructor_declaration (attribute_list) @decorator name: (identifier) @name) @definition.method

; Properties, indexers (`this[int i]`), events; fields and event fields one symbol per
; declarator.
(property_declaration name: (identifier) @name) @definition.property
(property_declaration (attribute_list) @decorator name: (identifier) @name) @definition.property
(indexer_declaration "this" @name) @definition.property
(event_declaration name: (identifier) @name) @definition.field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(field_declaration (attribute_list) @decorator
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field

; ---------------------------------------------------------------- heritage
; C# does not tell a base class from an interface in `: Base, IThing`: both are bases.

(_
  name: (identifier) @name
  (base_list [(identifier) (qualified_name)] @reference.inherits))
(_
  name: (identifier) @name
  (base_list (generic_name (identifier) @reference.inherits)))

; ---------------------------------------------------------------- calls
; `Run()`, `this.Stop()`, `Console.WriteLine()`, `Make<T>()` as written; `new T()` calls `T`.

(invocation_expression function: [(identifier) (member_access_expression)] @reference.call)
(invocation_expression function: (generic_name (identifier) @reference.call))
(object_creation_expression type: [(identifier) (qualified_name)] @reference.call)
(object_creation_expression type: (generic_name (identifier) @reference.call))

; ---------------------------------------------------------------- imports
; `using System.Text;` brings every name of a namespace; `using T = A.B.C;` one name.

(using_directive !name [(identifier) (qualified_name)] @import.module (#set! import.name "*")) @import
(using_directive
  name: (identifier) @import.alias
  (qualified_name qualifier: (_) @import.module name: (_) @import.name)) @import

; ---------------------------------------------------------------- comments (docs)

(comment) @comment
