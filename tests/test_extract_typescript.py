"""TypeScript and TSX extraction (typescript.scm / tsx.scm on top of ecma.scm) on
sample_repos/tsapp: expected rows checked by hand against the source."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

USER = "src/models/user.ts"
BASE = "src/services/baseService.ts"
USVC = "src/services/userService.ts"
FORMAT = "src/utils/format.ts"
INDEX = "src/index.ts"
SVC_INDEX = "src/services/index.ts"
CARD = "src/components/UserCard.tsx"


def ts(path):
    return sample("tsapp", path, "tsx" if path.endswith(".tsx") else "typescript")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (USER, "type", "src.models.user.UserId", 2, 2, "export type UserId = string",
     "Unique identifier of a user; treat it as an opaque string."),
    (USER, "enum", "src.models.user.Role", 5, 9, "export enum Role",
     "Roles a user can have, from least to most privileged."),
    (USER, "interface", "src.models.user.User", 15, 22, "export interface User",
     "A user as stored by the application."),
    (USER, "field", "src.models.user.User.tags", 21, 21, "tags?: string[]", None),
    (USER, "class", "src.models.user.UserRecord", 25, 51, "export class UserRecord implements User",
     "Concrete user record with a few convenience helpers."),
    (USER, "field", "src.models.user.UserRecord.createdAt", 27, 27,
     "public readonly createdAt: Date = new Date()", None),
    (USER, "method", "src.models.user.UserRecord.constructor", 29, 35,
     "constructor( public id: UserId, public firstName: string, public lastName: string, "
     "public email: string, public role: Role = Role.Member, )", None),
    (USER, "method", "src.models.user.UserRecord.initials", 43, 45, "get initials(): string",
     "Two-letter initials, used as an avatar placeholder."),
    (BASE, "interface", "src.services.baseService.Logger", 2, 5, "export interface Logger",
     "Minimal logger interface accepted by every service."),
    (BASE, "method", "src.services.baseService.Logger.info", 3, 3, "info(message: string): void", None),
    (BASE, "constant", "src.services.baseService.consoleLogger", 8, 11,
     "export const consoleLogger: Logger = {", "Logger that writes to the process console."),
    (BASE, "function", "src.services.baseService.consoleLogger.info", 9, 9, "info: (message)", None),
    (BASE, "function", "src.services.baseService.consoleLogger.warn", 10, 10, "warn: (message)", None),
    (BASE, "class", "src.services.baseService.BaseService", 17, 36, "export abstract class BaseService",
     "Common plumbing for services: a name, logging and a health check."),
    (BASE, "method", "src.services.baseService.BaseService.log", 31, 33,
     "protected log(message: string): void",
     "Prefix messages with the service name so interleaved logs stay readable."),
    (BASE, "method", "src.services.baseService.BaseService.init", 35, 35,
     "abstract init(): Promise<void>", None),
    (USVC, "constant", "src.services.userService.MAX_USERS", 5, 5, "const MAX_USERS = 1000", None),
    (USVC, "class", "src.services.userService.UserService", 19, 90,
     "export class UserService extends BaseService",
     "Stores users in memory and enforces basic invariants."),
    (USVC, "field", "src.services.userService.UserService.instanceCount", 20, 20,
     "private static instanceCount = 0", None),
    (USVC, "method", "src.services.userService.UserService.withUsers", 29, 33,
     "static withUsers(users: User[], logger?: Logger): UserService",
     "Create a service that already contains the given users."),
    (USVC, "method", "src.services.userService.UserService.reload", 65, 72,
     "async reload(loader: () => Promise<User[]>): Promise<number>",
     "Replace the whole directory with users from an external source."),
    (USVC, "method", "src.services.userService.UserService.buildRecord", 75, 82,
     "private buildRecord(firstName: string, lastName: string, email: string, role: Role): UserRecord",
     "Build a record with a unique, slug-based id."),
    # the license header above formatName is not its doc (and a blank line separates them)
    (FORMAT, "function", "src.utils.format.formatName", 6, 9,
     "export function formatName(first: string, last?: string): string", None),
    (FORMAT, "function", "src.utils.format.slugify", 20, 25, "export const slugify = (s: string): string",
     "Convert text into a URL-safe, dash separated slug."),
    (FORMAT, "function", "src.utils.format.truncate", 28, 29,
     "export const truncate = (text: string, max = 40): string",
     "Shorten text to at most `max` characters, adding an ellipsis when cut."),
    (FORMAT, "function", "src.utils.format.formatDate", 53, 56,
     "export default function formatDate(date: Date): string", "Format a date as `YYYY-MM-DD` in UTC."),
    (FORMAT, "function", "src.utils.format.formatDate.pad", 54, 54, "const pad = (n: number)", None),
    (INDEX, "constant", "src.STARTER_TAGS", 7, 10, "const STARTER_TAGS: TagTree = {", None),
    (INDEX, "function", "src.bootstrap", 16, 23, "export async function bootstrap(): Promise<UserService>",
     "Start the application and seed the administrator account."),
    (CARD, "interface", "src.components.UserCard.UserCardProps", 5, 9, "export interface UserCardProps", None),
    (CARD, "function", "src.components.UserCard.RoleBadge", 12, 14,
     "function RoleBadge({ role }: { role: Role })", "Small coloured badge showing a user's role."),
    (CARD, "function", "src.components.UserCard.UserCard", 20, 36,
     "export function UserCard({ user, compact = false, onSelect }: UserCardProps)",
     "Card summarising a user: name, e-mail, role and tags."),
    (CARD, "function", "src.components.UserCard.UserCard.handleClick", 22, 22,
     "const handleClick = ()", None),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert ts(path).row(qualname) == (kind, qualname, start, end, sig, doc)


def test_declarations_and_visibility():
    assert ts(BASE).find("src.services.baseService.Logger.info")["is_declaration"] is True
    assert ts(BASE).find("src.services.baseService.BaseService.init")["is_declaration"] is True
    assert ts(BASE).find("src.services.baseService.BaseService.health")["is_declaration"] is False
    svc = ts(USVC)
    assert svc.find("src.services.userService.UserService.buildRecord")["visibility"] == "private"
    assert svc.find("src.services.userService.UserService.createUser")["visibility"] == "public"
    assert ts(BASE).find("src.services.baseService.BaseService.startedAt")["visibility"] == "protected"


def test_heritage():
    assert ts(USVC).bases("src.services.userService.UserService") == ["BaseService"]
    assert ts(USVC).bases("src.services.userService.UserError") == ["Error"]
    assert ts(USER).bases("src.models.user.UserRecord", "implements") == ["User"]


def test_calls_self_new_local_and_chains():
    svc = ts(USVC)
    assert svc.call_edges("src.services.userService.UserService.createUser") == [
        ("this.assertCapacity", "src.services.userService.UserService.assertCapacity", "self", 41),
        ("this.buildRecord", "src.services.userService.UserService.buildRecord", "self", 42),
        ("this.users.set", None, "unresolved", 43),
        ("this.log", None, "unresolved", 44),          # inherited: resolved across files later
    ]
    assert svc.call_edges("src.services.userService.UserService.getUser") == [
        ("this.users.get", None, "unresolved", 50),
        ("UserError", "src.services.userService.UserError", "local", 52),   # new UserError(...)
    ]
    assert svc.calls("src.services.userService.UserService.listByRole") == [
        "this.users.values", "filter", "sort", "a.id.localeCompare"]
    # a chain split over lines reads without the line breaks
    assert ts(FORMAT).calls("src.utils.format.slugify") == [
        "s.normalize", "toLowerCase", "replace", "replace"]
    assert ts(FORMAT).call_edges("src.utils.format.flattenTags")[-1] == (
        "flattenTags", "src.utils.format.flattenTags", "local", 46)
    assert ts(INDEX).calls() == ["bootstrap", "then", "reportAdmins", "console.log",
                                 "service.health", "catch", "console.error"]


def test_tsx_component_use_is_a_call():
    assert ts(CARD).call_edges("src.components.UserCard.UserCard") == [
        ("displayName", None, "unresolved", 21),
        ("truncate", None, "unresolved", 27),
        ("RoleBadge", "src.components.UserCard.RoleBadge", "local", 28),
        ("map", None, "unresolved", 30),
    ]


def test_imports_named_aliased_default():
    assert ts(INDEX).import_rows() == [
        ("./services", "consoleLogger", None, 1),
        ("./services", "displayName", "showName", 1),
        ("./services", "UserService", None, 1),
        ("./utils/format", "default", "formatDate", 2),
        ("./utils/format", "flattenTags", None, 2),
        ("./utils/format", "TagTree", None, 2),
        ("./models/user", "Role", None, 3),
    ]


def test_reexports_are_imports():
    assert ts(SVC_INDEX).import_rows() == [
        ("./userService", "UserService", None, 3),
        ("../utils/format", "formatName", "displayName", 4),
        ("./baseService", "*", None, 5),
    ]


def test_decorators_namespaces_and_overloads_inline():
    ex = snippet("app/widget.ts", """\
@Component({ selector: 'x' })
export class Widget {
  @Input() label: string;

  /** Handles clicks. */
  @HostListener('click')
  @Debounce
  onClick(): void {}
}
export namespace Geo { export function area(r: number): number { return r * r; } }
export function parse(x: string): number;
export function parse(x: any): number { return Number(x); }
""", "typescript")
    cls = ex.find("app.widget.Widget")
    assert (cls["start_line"], cls["end_line"], cls["signature"], cls["decorators"]) == (
        1, 9, "export class Widget", ["@Component({ selector: 'x' })"])
    field = ex.find("app.widget.Widget.label")
    assert (field["kind"], field["start_line"], field["signature"], field["decorators"]) == (
        "field", 3, "label: string", ["@Input()"])
    m = ex.find("app.widget.Widget.onClick")
    assert (m["kind"], m["start_line"], m["end_line"], m["signature"], m["doc"], m["decorators"]) == (
        "method", 6, 8, "onClick(): void", "Handles clicks.", ["@HostListener('click')", "@Debounce"])
    assert ex.calls() == ["Component"]
    assert ex.calls("app.widget.Widget.label") == ["Input"]     # inside the field's range
    assert ex.calls("app.widget.Widget") == ["HostListener", "Debounce"]
    assert ex.row("app.widget.Geo.area")[:4] == ("function", "app.widget.Geo.area", 10, 10)
    assert ex.find("app.widget.Geo")["kind"] == "namespace"
    assert [(s["start_line"], s["is_declaration"]) for s in ex.symbols
            if s["qualname"] == "app.widget.parse"] == [(11, True), (12, False)]


def test_enum_members_belong_to_their_enum():
    got = [(s["kind"], s["qualname"], s["start_line"], s["signature"]) for s in ts(USER).symbols
           if s["kind"] == "enum_member"]
    assert got == [("enum_member", "src.models.user.Role.Guest", 6, "Guest = 'guest'"),
                   ("enum_member", "src.models.user.Role.Member", 7, "Member = 'member'"),
                   ("enum_member", "src.models.user.Role.Admin", 8, "Admin = 'admin'")]


def test_ambient_declarations_of_a_declaration_file():
    from extract_expect import snippet
    ex = snippet("types/schemas.d.ts", """\
export interface ZodAny { _def: Def; }
export declare const ZodAny: Constructor<ZodAny>;
declare let counter: number;
declare var a: string, b: number;
export declare function parse(x: unknown): ZodAny;
""", "typescript")
    rows = [(s["kind"], s["name"], s["start_line"], s["is_declaration"]) for s in ex.symbols[1:]
            if s["kind"] != "field"]
    assert rows == [("interface", "ZodAny", 1, False), ("constant", "ZodAny", 2, True),
                    ("variable", "counter", 3, True), ("variable", "a", 4, True),
                    ("variable", "b", 4, True), ("function", "parse", 5, True)]


def test_constants_of_a_declared_namespace():
    from extract_expect import snippet
    ex = snippet("helpers/util.d.ts", """\
export declare namespace util {
    export const arrayToEnum: <T>(items: T) => T;
    const find: Finder;
    export function assertIs<T>(_arg: T): void;
}
""", "typescript")
    rows = [(s["kind"], s["qualname"], s["is_declaration"]) for s in ex.symbols[1:]]
    assert rows == [("namespace", "helpers.util.util", False),
                    ("constant", "helpers.util.util.arrayToEnum", True),
                    ("constant", "helpers.util.util.find", True),
                    ("function", "helpers.util.util.assertIs", True)]


def test_constants_with_values_in_a_namespace():
    # a typed constant whose value picks one of two arrow functions is a constant; an arrow
    # function value is a function; locals of a function stay out
    ex = snippet("helpers/util.ts", """\
export namespace util {
  export const keys: ObjectConstructor["keys"] =
    typeof Object.keys === "function" ? (o: any) => Object.keys(o) : (o: any) => [];
  const limit = 10;
  export const inc = (x: number) => x + 1;
  export function first<T>(xs: T[]): T {
    const head = xs[0];
    return head;
  }
}
""", "typescript")
    rows = [(s["kind"], s["qualname"], s["start_line"], s["end_line"]) for s in ex.symbols[1:]]
    assert rows == [("namespace", "helpers.util.util", 1, 10),
                    ("constant", "helpers.util.util.keys", 2, 3),
                    ("constant", "helpers.util.util.limit", 4, 4),
                    ("function", "helpers.util.util.inc", 5, 5),
                    ("function", "helpers.util.util.first", 6, 9)]


def test_construct_signature_is_the_method_new():
    ex = snippet("core/ctor.ts", """\
export interface Builder<T> {
  new (def: Definition): T;
  init(inst: T, def: Definition): void;
  (raw: string): T;
}
""", "typescript")
    rows = [(s["kind"], s["qualname"], s["start_line"], s["is_declaration"]) for s in ex.symbols[1:]]
    assert rows == [("interface", "core.ctor.Builder", 1, False),
                    ("method", "core.ctor.Builder.new", 2, True),
                    ("method", "core.ctor.Builder.init", 3, True)]
