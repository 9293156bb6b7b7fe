"""Cross-file resolution of `calls`, `imports`, `inherits` and `implements` edges.

Reads only the tables (symbols, edges, imports, bindings): the pipeline runs one way and
nothing is re-parsed. The package is a language-neutral core and one module per language
family:

=================  =====================================================================
`model`            what resolution reads from the tables, as Python indexes (`Model`)
`bindings`         the model's bindings rows by scope, argument rows by callee (`Bindings`)
`lazy`             the model's rows in incremental runs, as evaluation reaches them
`refresh`          a kept model brought up to date after a re-index (`Refresh`)
`columns`          query results as lists by column, as the model holds them
`kept`             models kept in the process between runs (refreshed, not loaded again)
`values`           the values the evaluator computes with (typed tags), parameters
`exprs`            expressions as written cut into chains, alternatives and literals
`memo`             memoised evaluation with cycle cuts
`evaluate`         the evaluator (`Resolver`): texts to values, language-neutral
`members`          the evaluator's attributes of values, classes (MRO) and instances
`flows`            the evaluator's calls, returns, container elements, parameters
`passes`           the runs (`resolve_edges`): which files, the model, edges read in parts
`fileeval`         evaluating files one at a time: each edge's row, name-based fallbacks
`parallel`         a full run evaluated in two forked helper processes
`rows`             what evaluation keeps for the write: changed rows, what each file read
`writeback`        the rows written back, `call_candidates` rebuilt
`lang/`            one module per language family (`lang/base.py`: the interface)
=================  =====================================================================

How an edge was resolved is always said (`edges.resolution`):

=============  ==========================================================================
local          a definition in the same file reached through lexical scope
self           `self.m()` / `cls.m()` / `this.m()`: the enclosing class or a base (MRO)
super          `super().m()` / `super.m()`: the next class in the MRO
import         through an import of the defining module (`from m import f`, `m.f()`)
alias          through an import under another name (`import m as n`, `from m import f as g`)
reexport       through a module that re-exports the name (`__init__.py`, a barrel `index.ts`)
inferred       through a value the code makes evident: `x = A(); x.m()`, `self.x = B()`,
               a typed parameter or declaration, a function passed as an argument, ...
name-unique    the receiver is unknown; exactly one callable of that name exists in the repo
ambiguous      several targets are possible: `candidates` lists them (qualnames), dst_id NULL
builtin        a builtin of the language (`len`, `print`, `console.log`, Go `append`)
external       outside the repository, named by its import path (`os.path.join`)
unresolved     nothing evident; dst_id NULL
callback       no call expression: a function of the repository handed to a builtin or
               outside function that calls it (`sorted(xs, key=f)`, `map(f, xs)`), from
               the scope handing it over; dst_name the argument as written, line the
               call's; one of several functions: `candidates`, dst_id NULL
implicit       no call expression: a method of the repository Python runs for an operator,
               a subscript, a `with`, a `for`, a builtin (`len(x)`), a dataclass's
               generated `__init__` or a module's `__getattr__` (`lang/python_implicit.py`);
               dst_name the operand and the method (`p.__truediv__`); one of several
               classes' methods: `candidates`, dst_id NULL; only with the `implicit`
               setting on (`setting`: off by default)
=============  ==========================================================================

No edge is bound by its name alone unless it says `name-unique`. Callback and implicit rows
are the only edges resolution adds (`fileeval._callbacks`, `fileeval._implicit_sites`,
written by `writeback`): the others are extracted, one per call expression, and
resolution fills their targets.
"""
from __future__ import annotations

from .evaluate import Resolver
from .model import Model
from .passes import RESOLUTIONS, RESOLVER_VERSION, ResolveStats, resolve_edges, resolve_import

__all__ = ["resolve_edges", "resolve_import", "ResolveStats", "RESOLUTIONS", "RESOLVER_VERSION",
           "Model", "Resolver"]
