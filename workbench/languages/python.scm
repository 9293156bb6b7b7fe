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
; the module docstring may follow comments (a licence header, a shebang, a coding line)
(module . (comment)* . (string) @doc.module)

; Class-level fields and module variables (plain, annotated and chained assignments).
(class_definition
  body: (block (assignment left: (identifier) @name) @definition.field))
(class_definition
  body: (block (assignment left: (pattern_list (identifier) @name)) @definition.field))
(module (assignment left: (identifier) @name) @definition.variable)
(module (assignment left: (pattern_list (identifier) @name)) @definition.variable)
(module (assignment right: (assignment left: (identifier) @name)) @definition.variable)
; ... also when set in a module-level `if`/`try` (`try: import x; HAVE_X = True except ...`).
(module (if_statement consequence: (block (assignment left: (identifier) @name) @definition.variable)))
(module (if_statement alternative: (elif_clause consequence: (block (assignment left: (identifier) @name) @definition.variable))))
(module (if_statement alternative: (else_clause body: (block (assignment left: (identifier) @name) @definition.variable))))
(module (try_statement body: (block (assignment left: (identifier) @name) @definition.variable)))
(module (try_statement (except_clause (block (assignment left: (identifier) @name) @definition.variable))))
(module (try_statement (else_clause body: (block (assignment left: (identifier) @name) @definition.variable))))
(module (try_statement (finally_clause (block (assignment left: (identifier) @name) @definition.variable))))

; Bases of a class.
(class_definition
  name: (identifier) @name
  superclasses: (argument_list [(identifier) (attribute)] @reference.inherits))

; Calls (the callee as written) and decorators used without a call. A call's arguments are
; `arg` bindings (`@bind.args`: which of them are rows is said by the shapes further down).
(call function: (_) @reference.call @bind.target arguments: (_) @bind.args) @bind.arg
(decorator (identifier) @reference.call)
(decorator (attribute) @reference.call)

; Imports.
(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.name) @import

; --- call-graph captures (workbench/resolve/ reads these; see docs/schema.md)
; Lambdas are symbols of kind `lambda`, named `<lambdaN>` by extract.py (numbered from 1 in
; source order within their enclosing definition); calls in their body belong to them.
(lambda "lambda" @name body: (_) @body) @definition.lambda

; Bindings (`bindings` table): `@bind.<kind>` anchors the row (scope and line),
; `@bind.target` is the name bound, `@bind.value` the expression, `@bind.key` a keyword.
; (A pattern per node type rather than one with an alternation `[(identifier) (attribute)]`
; where the alternation sits on a frequent node: the query matches faster, same matches.)
(assignment left: (identifier) @bind.target right: (_) @bind.value) @bind.assign
(assignment left: (attribute) @bind.target right: (_) @bind.value) @bind.assign
(assignment left: (identifier) @bind.target
  right: (assignment left: [(identifier) (attribute)] right: (_) @bind.value)) @bind.assign
; a lambda in parentheses or among the operands of `or` / `if else` (`self.cb = cb or
; (lambda: default())`): a row of its own, whose value is the lambda
(assignment left: (identifier) @bind.target
  right: (parenthesized_expression (lambda) @bind.value)) @bind.assign
(assignment left: (attribute) @bind.target
  right: (parenthesized_expression (lambda) @bind.value)) @bind.assign
(assignment left: (identifier) @bind.target
  right: (boolean_operator (parenthesized_expression (lambda) @bind.value))) @bind.assign
(assignment left: (attribute) @bind.target
  right: (boolean_operator (parenthesized_expression (lambda) @bind.value))) @bind.assign
(assignment left: (identifier) @bind.target
  right: (conditional_expression (lambda) @bind.value)) @bind.assign
(assignment left: (attribute) @bind.target
  right: (conditional_expression (lambda) @bind.value)) @bind.assign
(assignment left: (identifier) @bind.target
  right: (conditional_expression (parenthesized_expression (lambda) @bind.value))) @bind.assign
(assignment left: (attribute) @bind.target
  right: (conditional_expression (parenthesized_expression (lambda) @bind.value))) @bind.assign
(assignment left: (identifier) @bind.target
  right: (dictionary (pair value: (_) @bind.value))) @bind.element
(assignment left: (identifier) @bind.target
  right: [(list (_) @bind.value) (tuple (_) @bind.value) (set (_) @bind.value)]) @bind.element
(augmented_assignment left: (identifier) @bind.target
  right: [(list (_) @bind.value) (tuple (_) @bind.value)]) @bind.element
; `d[k] = f`: an element; `xs[:0] = [f]`, a slice (a `:` inside the brackets before any
; quote or bracket): the elements of the value are elements
(assignment left: (subscript value: (identifier) @bind.target) @_lhs right: (_) @bind.value
  (#not-match? @_lhs "^[^\\[]*\\[[^]\"'([{]*:")) @bind.element
(assignment left: (subscript value: (attribute) @bind.target) @_lhs right: (_) @bind.value
  (#not-match? @_lhs "^[^\\[]*\\[[^]\"'([{]*:")) @bind.element
(assignment left: (subscript value: (identifier) @bind.target) @_lhs right: (_) @bind.value
  (#match? @_lhs "^[^\\[]*\\[[^]\"'([{]*:")) @bind.extend
(assignment left: (subscript value: (attribute) @bind.target) @_lhs right: (_) @bind.value
  (#match? @_lhs "^[^\\[]*\\[[^]\"'([{]*:")) @bind.extend
(call function: (attribute object: [(identifier) (attribute)] @bind.target
                          attribute: (identifier) @_m (#any-of? @_m "append" "appendleft" "add" "insert" "setdefault"))
  arguments: (argument_list (_) @bind.value .)) @bind.element
; `d.update({"k": f})`: each value is an element of `d` (jinja2's `env.filters.update(...)`)
(call function: (attribute object: [(identifier) (attribute)] @bind.target
                          attribute: (identifier) @_m (#eq? @_m "update"))
  arguments: (argument_list (dictionary (pair value: (_) @bind.value)))) @bind.element
; `d.setdefault(k, []).append(f)` / `d[k].append(f)`: `f` is an element of an element of
; `d` (kind `nest`: hook registries such as flask's `before_request_funcs`)
(call function: (attribute object: (call function: (attribute object: [(identifier) (attribute)] @bind.target
                                                               attribute: (identifier) @_s (#eq? @_s "setdefault")))
                          attribute: (identifier) @_m (#any-of? @_m "append" "appendleft" "add" "insert"))
  arguments: (argument_list (_) @bind.value .)) @bind.nest
(call function: (attribute object: (subscript value: [(identifier) (attribute)] @bind.target)
                          attribute: (identifier) @_m (#any-of? @_m "append" "appendleft" "add" "insert"))
  arguments: (argument_list (_) @bind.value .)) @bind.nest
; `heapq.heappush(heap, item)` (also `heappushpop`, `heapreplace`): `item` is an element of
; `heap` (`sched` and `asyncio`'s timers)
(call function: [(identifier) @_f (attribute attribute: (identifier) @_f)]
  (#any-of? @_f "heappush" "heappushpop" "heapreplace")
  arguments: (argument_list . [(identifier) (attribute)] @bind.target . (_) @bind.value .)) @bind.element
; `xs.extend(v)`: the elements of `v` are elements of `xs`
(call function: (attribute object: [(identifier) (attribute)] @bind.target
                          attribute: (identifier) @_m (#any-of? @_m "extend" "extendleft"))
  arguments: (argument_list . (_) @bind.value .)) @bind.extend
(named_expression name: (identifier) @bind.target value: (_) @bind.value) @bind.assign
(return_statement (_) @bind.value) @bind.return
; a lambda returned in parentheses (`return (lambda x: x + 1)`): a row of its own, whose value
; is the lambda, as for an assignment
(return_statement (parenthesized_expression (lambda) @bind.value)) @bind.return
; a name or an attribute raised without a call (`raise E`, `raise mod.Error from e`: the value
; raised, not the cause): a class raised so is instantiated, its `__init__` runs (an implicit
; site, `python_implicit`); a bare `raise NotImplementedError` makes the scope a template
; method's step (`Python.abstract_method`)
(raise_statement . [(identifier) (attribute)] @bind.value) @bind.raise
; `global x` in a function: the function's bindings of `x` bind the module's `x` (a row per
; name, value the name; `Python.global_scopes` reads them from the table)
(global_statement (identifier) @bind.value) @bind.global
; PEP 562: a module's `def __getattr__(name)` returning a value under `if name == "X":` (or
; `elif`): a row per such return, named by the text compared, value the expression returned
; (`Python.getattr_cases`)
(function_definition name: (identifier) @_f (#eq? @_f "__getattr__")
  parameters: (parameters . (identifier) @_p)
  body: (block (if_statement condition: (comparison_operator (identifier) @_n "==" (string) @bind.target)
                             consequence: (block (return_statement (_) @bind.value))) @bind.getattr_case)
  (#eq? @_n @_p))
(function_definition name: (identifier) @_f (#eq? @_f "__getattr__")
  parameters: (parameters . (identifier) @_p)
  body: (block (if_statement alternative: (elif_clause condition: (comparison_operator (identifier) @_n "==" (string) @bind.target)
                                                       consequence: (block (return_statement (_) @bind.value))) @bind.getattr_case))
  (#eq? @_n @_p))
(yield (_) @bind.value) @bind.yield
(lambda body: (_) @bind.value @bind.return)
(for_statement left: (identifier) @bind.target right: (_) @bind.value) @bind.iter
(for_in_clause left: (identifier) @bind.target right: (_) @bind.value) @bind.iter
; `for fn, args in calls:`: `fn` is item 0 of each element (name `fn#0`, as `unpack` names
; it); `for i, (k, v) in ...`: `k` is item 1 then item 0 (`k#1.0`); two levels deep, starred
; targets too (`bindrows.unpack_slot` writes the slots)
(for_statement left: [(pattern_list [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                       (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                       (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])
        (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                        (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                        (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])
        (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                       (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                       (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])]
  right: (_) @bind.value) @bind.iter_unpack
(for_in_clause left: [(pattern_list [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                       (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                       (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])
        (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                        (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                        (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])
        (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                       (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                       (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])]
  right: (_) @bind.value) @bind.iter_unpack
(with_item value: (as_pattern (_) @bind.value
                              alias: (as_pattern_target (identifier) @bind.target))) @bind.with
;  `except E as e:` / `except (E, F) as e:`: `e` is an instance of the class named
; (a declared type, like an annotation)
(except_clause value: (as_pattern [(identifier) (attribute)] @bind.value
                                  alias: (as_pattern_target (identifier) @bind.target))) @bind.declare
(except_clause value: (as_pattern (tuple [(identifier) (attribute)] @bind.value)
                                  alias: (as_pattern_target (identifier) @bind.target))) @bind.declare
; Call arguments (`arg` rows, named `callee#slot`): the named children of a call's argument list
; (`@bind.args` above) that have one of these shapes (`@shape.arg`). Shapes are not run over
; the tree: extract.py tests each argument against them (workbench/shapes.py; a pattern per
; shape started at every call made a third of the query's time).
; Names, attributes, lambdas, calls and subscripts; list and tuple literals too when their
; first item is a name, an attribute, a lambda or a call (`Suite([check_a, check_b])`, as
; `unittest.TestSuite(tests)` is made; not `["a", "b"]`)
(argument_list [(identifier) (attribute) (lambda) (call) (subscript)] @bind.value) @shape.arg
(argument_list [(list . [(identifier) (attribute) (lambda) (call)])
                (tuple . [(identifier) (attribute) (lambda) (call)])] @bind.value) @shape.arg
; a dict literal whose first value is a name, an attribute, a lambda or a list starting with
; one (`Session().request(url, hooks={"response": [log]})`, as `requests` takes its hooks)
(argument_list (dictionary . (pair value: [(identifier) (attribute) (lambda)
                                           (list . [(identifier) (attribute) (lambda)])])) @bind.value) @shape.arg
; keyword arguments whose value has one of the shapes above (the slot is the keyword)
(argument_list (keyword_argument name: (identifier) @bind.key
                                 value: [(identifier) (attribute) (lambda) (call) (subscript)
                                         (list . [(identifier) (attribute) (lambda) (call)])
                                         (tuple . [(identifier) (attribute) (lambda) (call)])
                                         (dictionary . (pair value: [(identifier) (attribute) (lambda)
                                                                     (list . [(identifier) (attribute) (lambda)])]))]
                                 @bind.value)) @shape.arg
; `f(**{"cb": g})`, `f(**opts)`: an argument row with the slot `**` (`Flows._arg_flows`
; reads the key of the parameter it looks for)
(argument_list (dictionary_splat "**" @bind.key [(identifier) (attribute) (dictionary) (call)] @bind.value)) @shape.arg
; `a, b = f, g` / `(a, b) = ...` / `[a, b] = ...`, nested and starred as in a `for` above
; (`a, (b, c) = ...`: `c#1.1`; `a, *b, c = ...`: `b#1*1`, `c#-1`)
(assignment left: [(pattern_list [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                       (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                       (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])
        (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                        (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                        (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])
        (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)
                       (tuple_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])
                       (list_pattern [(identifier) @bind.target (list_splat_pattern (identifier) @bind.target)])])]
  right: (_) @bind.value) @bind.unpack
; Implicit calls (`implicit` rows, read by `resolve/lang/python_implicit.py`): the operand
; whose class's dunder method an operator, a subscript or a `with` runs, named by the
; operator as written (`/`, `==`, `in`: the right operand; `[`: a subscript read, `=`: a
; subscript assigned, `del`; `with` / `async`: each item of a `with` / `async with`)
(binary_operator left: [(identifier) (attribute) (call)] @bind.value operator: _ @bind.target) @bind.implicit
(comparison_operator . [(identifier) (attribute) (call)] @bind.value
  . ["==" "!=" "<" "<=" ">" ">="] @bind.target) @bind.implicit
(comparison_operator "in" @bind.target . [(identifier) (attribute) (call)] @bind.value) @bind.implicit
(subscript value: [(identifier) (attribute) (call)] @bind.value "[" @bind.target) @bind.implicit
(assignment left: (subscript value: [(identifier) (attribute) (call)] @bind.value) "=" @bind.target) @bind.implicit
(delete_statement "del" @bind.target (subscript value: [(identifier) (attribute) (call)] @bind.value)) @bind.implicit
(with_statement "with" @bind.target
  (with_clause (with_item value: [(identifier) (attribute) (call)] @bind.value))) @bind.implicit
(with_statement "with" @bind.target
  (with_clause (with_item value: (as_pattern [(identifier) (attribute) (call)] @bind.value)))) @bind.implicit
(with_statement "async" @bind.target
  (with_clause (with_item value: [(identifier) (attribute) (call)] @bind.value))) @bind.implicit
(with_statement "async" @bind.target
  (with_clause (with_item value: (as_pattern [(identifier) (attribute) (call)] @bind.value)))) @bind.implicit
