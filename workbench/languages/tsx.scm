; inherits: typescript, jsx
; TSX = TypeScript rules + JSX component references.
