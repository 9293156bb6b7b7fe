; C (and the C part of C++: cpp.scm inherits this file). Functions and prototypes,
; structs/unions/enums, typedefs, macros, globals, calls, #include.
; Capture names: see workbench/languages/__init__.py.

; ---------------------------------------------------------------- functions
; The name sits in the function_declarator, possibly under pointer declarators.

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  body: (compound_statement) @body) @definition.function

; Prototypes (`int add(int a, int b);`).
(declaration declarator: (function_declarator declarator: (identifier) @name)) @declaration.function
(declaration
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @declaration.function
(declaration
  declarator: (pointer_declarator
    declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @declaration.function

; ---------------------------------------------------------------- types
; `typedef struct Point {..} Point;` is one symbol (named by its tag, spanning the typedef);
; `typedef struct {..} Point;` is named by the typedef.

(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(type_definition
  type: (struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)) @definition.struct
(type_definition
  type: (struct_specifier !name body: (field_declaration_list) @body)
  declarator: (type_identifier) @name) @definition.struct

(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.union
(type_definition
  type: (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)) @definition.union
(type_definition
  type: (union_specifier !name body: (field_declaration_list) @body)
  declarator: (type_identifier) @name) @definition.union

(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum
(type_definition
  type: (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body)) @definition.enum
(type_definition
  type: (enum_specifier !name body: (enumerator_list) @body)
  declarator: (type_identifier) @name) @definition.enum

;; Other typedefs: `typedef struct PointVec PointVec;`, `typedef unsigned long u64;`,
; pointer, array and function(-pointer) typedefs, and every name of a
; `typedef struct TAG {..} NAME, *PNAME;` other than the tag (the struct is named by its tag).
(type_definition
  type: [(primitive_type) (type_identifier) (sized_type_specifier)
         (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
               (array_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (type_identifier) @name)]) @definition.type
(type_definition
  declarator: [(function_declarator
                 declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
               (pointer_declarator
                 declarator: (function_declarator
                   declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))))
               (array_declarator
                 declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
               (function_declarator declarator: (parenthesized_declarator (type_identifier) @name))]) @definition.type
((type_definition
  type: [(struct_specifier name: (type_identifier) @_tag body: (_))
         (union_specifier name: (type_identifier) @_tag body: (_))
         (enum_specifier name: (type_identifier) @_tag body: (_))]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
               (array_declarator declarator: (type_identifier) @name)]) @definition.type
 (#not-eq? @_tag @name))
(type_definition
  type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_)) (enum_specifier !name body: (_))]
  declarator: [(pointer_declarator declarator: (type_identifier) @name)
               (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
               (array_declarator declarator: (type_identifier) @name)]) @definition.type

; Enumerators (`RED`, `GREEN = 2`): shown with their enum in outlines.
; (in an enum body, or in an #if block inside one)
(enumerator name: (identifier) @name) @definition.enum_member

;; Struct and union fields: pointers, arrays, function pointers (`int (*run)(int);`,
; `struct netdev *(*alloc)(void);`, `void (*handlers[4])(int);`).
; (A field declaration only stands in a struct body, or in an #if block inside one.)
(field_declaration
    declarator: [(field_identifier) @name
                 (pointer_declarator declarator: (field_identifier) @name)
                 (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
                 (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
                 (array_declarator declarator: (field_identifier) @name)
                 (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
                 (array_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
                 (function_declarator
                   declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
                 (function_declarator
                   declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))))
                 (pointer_declarator
                   declarator: (function_declarator
                     declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
                 (pointer_declarator
                   declarator: (pointer_declarator
                     declarator: (function_declarator
                       declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))))
                ]) @definition.field

; ---------------------------------------------------------------- macros
; Object-like macros, with a value or without (`#define FMT_API`); the signature of a
; function-like macro stops before its replacement text. A header's include guard (the
; `#define` of the name its top-level `#ifndef` tests) is no symbol.

(preproc_def name: (identifier) @name value: (_)) @definition.macro
((translation_unit
  (preproc_ifdef name: (identifier) @_guard (preproc_def name: (identifier) @name !value) @definition.macro))
 (#not-eq? @_guard @name))
(preproc_if (preproc_def name: (identifier) @name !value) @definition.macro)
(preproc_else (preproc_def name: (identifier) @name !value) @definition.macro)
(preproc_elif (preproc_def name: (identifier) @name !value) @definition.macro)
(preproc_elifdef (preproc_def name: (identifier) @name !value) @definition.macro)
(declaration_list (preproc_def name: (identifier) @name !value) @definition.macro)
(field_declaration_list (preproc_def name: (identifier) @name !value) @definition.macro)
(compound_statement (preproc_def name: (identifier) @name !value) @definition.macro)
(preproc_if (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(preproc_else (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(preproc_elif (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(preproc_elifdef (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(declaration_list (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(field_declaration_list (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(compound_statement (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(preproc_ifdef (preproc_ifdef (preproc_def name: (identifier) @name !value) @definition.macro))
(translation_unit (preproc_def name: (identifier) @name !value) @definition.macro)
(preproc_function_def name: (identifier) @name value: (_) @body) @definition.macro
(preproc_function_def name: (identifier) @name !value) @definition.macro

; ---------------------------------------------------------------- globals
; File-scope variables (also inside #if blocks): `const`/`constexpr` ones are constants.

((translation_unit
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.variable)
 (#not-match? @definition.variable "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((translation_unit
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.constant)
 (#match? @definition.constant "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((preproc_ifdef
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.variable)
 (#not-match? @definition.variable "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((preproc_ifdef
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.constant)
 (#match? @definition.constant "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((preproc_if
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.variable)
 (#not-match? @definition.variable "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((preproc_if
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.constant)
 (#match? @definition.constant "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((preproc_else
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.variable)
 (#not-match? @definition.variable "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((preproc_else
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.constant)
 (#match? @definition.constant "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((declaration_list
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.variable)
 (#not-match? @definition.variable "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))
((declaration_list
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))
                 (init_declarator declarator: (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)]) @definition.constant)
 (#match? @definition.constant "^\\s*((static|extern|inline|thread_local|_Thread_local)\\s+)*(const|constexpr)\\b"))

; ---------------------------------------------------------------- calls

; `f()`, `ops->read()`, `s.cb()` (macro calls like `VEC_LEN(v)` too): the callee as written.
(call_expression
  function: [(identifier)
             (field_expression argument: [(identifier) (field_expression) (subscript_expression)
                                          (pointer_expression)])] @reference.call)
; A call on a computed receiver (`get()->run()`): just the member name.
(call_expression
  function: (field_expression
    argument: [(call_expression) (parenthesized_expression)]
    field: (_) @reference.call))

; ---------------------------------------------------------------- imports

; `#include "vec.h"` / `#include <stdio.h>`: module = the path without quotes/brackets.
(preproc_include path: (_) @import.module) @import

; ---------------------------------------------------------------- comments (docs)

(comment) @comment

; --- call-graph captures (`bindings` rows read by workbench/resolve/; see docs/schema.md)
; Functions passed as arguments (`qsort(.., cmp)`, `for_each(xs, n, print_item)`): they
; flow to the callee's parameter, which the callee may call.
(call_expression function: (_) @bind.target
  arguments: (argument_list [(identifier) (field_expression)] @bind.value)) @bind.arg
(return_statement (_) @bind.value) @bind.return
; `T x;` / `T x = v;` (a typed local); `x = v;`.
(declaration type: (type_identifier) @bind.value declarator: (identifier) @bind.target) @bind.declare
(declaration type: (type_identifier) @bind.value
  declarator: (init_declarator declarator: (identifier) @bind.target)) @bind.declare
(declaration declarator: (init_declarator declarator: (identifier) @bind.target
  value: [(identifier) (call_expression) (field_expression)] @bind.value)) @bind.assign
