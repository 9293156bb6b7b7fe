; inherits: ecma, jsx
; JavaScript-only rules; the shared JS/TS rules are in ecma.scm.

; Class fields `x = 1`, `static y`, `#p`; method decorators live inside method_definition.
(class_body (field_definition property: (_) @name) @definition.field)
(class_body
  (method_definition decorator: (decorator) @decorator name: (_) @name) @definition.function)

; Heritage: `class A extends B`.
(class_declaration
  name: (_) @name
  (class_heritage [(identifier) (member_expression)] @reference.inherits))

; --- call-graph captures (shared ones in ecma.scm)
(field_definition property: (_) @bind.target value: (_) @bind.value) @bind.assign
