package main

type Buffer struct {
	data []byte
}

func NewBuffer(n int) *Buffer {
	return &Buffer{data: make([]byte, 0, n)}
}

func (b *Buffer) WriteString(s string) {
	b.grow(len(s))
	b.data = append(b.data, s...)
}

func (b *Buffer) grow(n int) {
	if cap(b.data)-len(b.data) < n {
		b.data = b.realloc(n)
	}
}

func (b *Buffer) realloc(n int) []byte {
	nd := make([]byte, len(b.data), 2*cap(b.data)+n)
	copy(nd, b.data)
	return nd
}

func (b Buffer) Len() int {
	return len(b.data)
}
