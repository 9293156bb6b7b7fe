; inherits: c
; C++ rules on top of c.scm: classes, namespaces, methods (in-class and out-of-line
; `geo::Circle::area`), templates, base classes, C++ call forms.
; Capture names: see workbench/languages/__init__.py.

; ---------------------------------------------------------------- classes and namespaces

(class_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.class
(class_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list) @body) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list) @body) @definition.struct

; `namespace a { namespace b {} }` nests; `namespace a::b {}` reads `a.b`. Anonymous
; namespaces are no symbol (their contents belong to the file).
(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name
  body: (declaration_list) @body) @definition.namespace

; ---------------------------------------------------------------- functions and methods
; Names beyond C's identifiers: methods (field_identifier), out-of-line definitions
; (qualified_identifier: `::` becomes `.` in the qualname, the last part is the name),
; destructors and operators; `T &f()` adds a reference_declarator.

(function_definition
  declarator: (function_declarator
    declarator: [(field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name)
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: [(pointer_declarator
                 declarator: (function_declarator
                   declarator: [(field_identifier) (qualified_identifier) (operator_name)] @name))
               (reference_declarator
                 (function_declarator
                   declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name))]
  body: (compound_statement) @body) @definition.function
; `~Shape() = default;`, `Foo(const Foo&) = delete;`, `Foo& operator=(const Foo&) = delete;`
(function_definition
  declarator: [(function_declarator
                 declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name)
               (reference_declarator
                 (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name))]
  !body) @declaration.function

; Conversion operators (`explicit operator bool() const`): named `operator bool` (the
; spec's `node_labels`: "operator " + the operator's type).
(function_definition declarator: (operator_cast) @name body: (compound_statement) @body) @definition.function
(template_declaration (function_definition declarator: (operator_cast) @name body: (compound_statement) @body)) @definition.function
(declaration declarator: (operator_cast) @name) @declaration.function
(field_declaration declarator: (operator_cast) @name) @declaration.function

; Member function declarations in a class body (`double area() const override;`,
; `virtual double area() const = 0;`, `explicit Circle(double r);`, `~Circle();`).
(field_declaration
  declarator: [(function_declarator declarator: [(field_identifier) (operator_name)] @name)
               (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
               (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))]) @declaration.function
(declaration
  declarator: (function_declarator declarator: [(destructor_name) (qualified_identifier) (operator_name)] @name)) @declaration.function

; ---------------------------------------------------------------- templates
; `template <...>` before a class or function belongs to it (the wider node wins), so the
; signature starts with `template <typename T>`.

(template_declaration
  (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])) @definition.class
(template_declaration
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])) @definition.struct
(template_declaration
  (function_definition
    declarator: [(function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name)
                 (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name))
                 (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @name))])) @definition.function
(template_declaration
  (declaration
    declarator: [(function_declarator declarator: [(identifier) (qualified_identifier)] @name)
                 (pointer_declarator declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))
                 (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier)] @name))])) @declaration.function
(template_declaration (alias_declaration name: (type_identifier) @name)) @definition.type
; Explicit specializations (`template <> constexpr auto digits10<int128_opt>() -> int {..}`,
; `template <> inline void fputs<wchar_t>(..) {..}`): named after their template, `digits10`.
(template_declaration
  (function_definition
    declarator: [(function_declarator declarator: (template_function name: (identifier) @name))
                 (pointer_declarator declarator: (function_declarator declarator: (template_function name: (identifier) @name)))
                 (reference_declarator (function_declarator declarator: (template_function name: (identifier) @name)))]
    body: (compound_statement) @body)) @definition.function

; `using Id = std::string;` at file, namespace or class scope, also in #if blocks (not local
; aliases).
(translation_unit (alias_declaration name: (type_identifier) @name) @definition.type)
(declaration_list (alias_declaration name: (type_identifier) @name) @definition.type)
(field_declaration_list (alias_declaration name: (type_identifier) @name) @definition.type)
(preproc_ifdef (alias_declaration name: (type_identifier) @name) @definition.type)
(preproc_if (alias_declaration name: (type_identifier) @name) @definition.type)
(preproc_else (alias_declaration name: (type_identifier) @name) @definition.type)
(preproc_elif (alias_declaration name: (type_identifier) @name) @definition.type)
; `typedef typename Traits::Bits Bits;`, `typedef std::vector<T> List;`,
; `typedef std::ostream& (*Manip)(std::ostream&);`
(type_definition
  type: [(qualified_identifier) (template_type) (dependent_type) (decltype)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (reference_declarator (type_identifier) @name)]) @definition.type
(type_definition
  declarator: [(reference_declarator
                 (function_declarator
                   declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (qualified_identifier) (type_identifier) @name)))]) @definition.type

; Reference members (`Container& container_;`, `const T& value_;`).
(field_declaration
  declarator: [(reference_declarator (field_identifier) @name)
               (reference_declarator (pointer_declarator declarator: (field_identifier) @name))]) @definition.field

; ---------------------------------------------------------------- static data members
; Defined outside their class (the spec's `qualified_names` drops the template arguments of
; the scope: `Helper<T>::dummy_` is `Helper.dummy_`): with a value they are definitions
; (`bool TypeIdHelper<T>::dummy_ = false;`, `const T* W<T>::param_ = nullptr;`); without one
; (`const bool IsHashTable<T>::value;`, `constexpr CharT lit<CharT, C...>::value[N];`, the
; out-of-line twin of an in-class constant) declarations, so a lookup shows the member's
; declaration in its class first. The name ends in `Scope::member` (error recovery in a
; macro's body can make a qualified name of other text).
(declaration
  declarator: (init_declarator
    declarator: [(qualified_identifier) @name
                 (pointer_declarator declarator: (qualified_identifier) @name)
                 (reference_declarator (qualified_identifier) @name)
                 (array_declarator declarator: (qualified_identifier) @name)])
  (#match? @name "[\\w>]::[A-Za-z_]\\w*$")) @definition.field
(template_declaration
  (declaration
    declarator: (init_declarator
      declarator: [(qualified_identifier) @name
                   (pointer_declarator declarator: (qualified_identifier) @name)
                   (reference_declarator (qualified_identifier) @name)
                   (array_declarator declarator: (qualified_identifier) @name)]))
  (#match? @name "[\\w>]::[A-Za-z_]\\w*$")) @definition.field
(declaration
  declarator: [(qualified_identifier) @name
               (pointer_declarator declarator: (qualified_identifier) @name)
               (array_declarator declarator: (qualified_identifier) @name)]
  (#match? @name "[\\w>]::[A-Za-z_]\\w*$")) @declaration.field
(template_declaration
  (declaration
    declarator: [(qualified_identifier) @name
                 (pointer_declarator declarator: (qualified_identifier) @name)
                 (array_declarator declarator: (qualified_identifier) @name)])
  (#match? @name "[\\w>]::[A-Za-z_]\\w*$")) @declaration.field

; ---------------------------------------------------------------- heritage

(class_specifier
  name: (type_identifier) @name
  (base_class_clause [(type_identifier) (qualified_identifier)] @reference.inherits))
(class_specifier
  name: (type_identifier) @name
  (base_class_clause (template_type name: (_) @reference.inherits)))
(struct_specifier
  name: (type_identifier) @name
  (base_class_clause [(type_identifier) (qualified_identifier)] @reference.inherits))
(struct_specifier
  name: (type_identifier) @name
  (base_class_clause (template_type name: (_) @reference.inherits)))

; ---------------------------------------------------------------- calls (C forms are in c.scm)

; `std::accumulate()`, `Shape::name()`, `this->area()`, `max_of<int>()` (the template name).
(call_expression function: (qualified_identifier) @reference.call)
(call_expression function: (field_expression argument: (this)) @reference.call)
(call_expression function: (template_function name: (_) @reference.call))
(call_expression function: (field_expression argument: (template_function)) @reference.call)
; `new T(...)` is a call to `T`.
(new_expression type: [(type_identifier) (qualified_identifier)] @reference.call)
(new_expression type: (template_type name: (_) @reference.call))
; `T x(args);` / `T x{args};` constructs a T: a call to `T` (its constructor).
(declaration type: [(type_identifier) (qualified_identifier)] @reference.call
  declarator: (init_declarator value: [(argument_list) (initializer_list)]))

; `using std::string;` / `using namespace std;` are imports of a name / everything.
(using_declaration (qualified_identifier scope: (_) @import.module name: (_) @import.name)) @import
(using_declaration "namespace" [(identifier) (qualified_identifier) (namespace_identifier)] @import.module (#set! import.name "*")) @import

; --- call-graph captures (C forms are in c.scm): `ns::T x(...);`
(declaration type: (qualified_identifier) @bind.value declarator: (identifier) @bind.target) @bind.declare
(declaration type: (qualified_identifier) @bind.value
  declarator: (init_declarator declarator: (identifier) @bind.target)) @bind.declare
; Lambdas are symbols of kind `lambda`, named `<lambdaN>` by extract.py.
(lambda_expression captures: (lambda_capture_specifier) @name body: (compound_statement) @body) @definition.lambda
(declaration declarator: (init_declarator declarator: (identifier) @bind.target
  value: (lambda_expression) @bind.value)) @bind.assign
(call_expression function: (_) @bind.target
  arguments: (argument_list (lambda_expression) @bind.value)) @bind.arg
