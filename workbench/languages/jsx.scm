; JSX (javascript and tsx): rendering a component `<UserCard .../>` is a call to it.
; Lower-case tags are intrinsic elements (div, span) and are left out.

(jsx_opening_element
  name: [(identifier) (member_expression)] @reference.call
  (#match? @reference.call "^[A-Z]"))
(jsx_self_closing_element
  name: [(identifier) (member_expression)] @reference.call
  (#match? @reference.call "^[A-Z]"))
