package rw

type Reader struct {
	buf []string
}

func (r *Reader) Read() string {
	if len(r.buf) == 0 {
		return ""
	}
	s := r.buf[0]
	r.buf = r.buf[1:]
	return s
}

type Writer struct {
	out []string
}

func (w *Writer) Write(s string) {
	w.out = append(w.out, s)
}

type Pipe struct {
	*Reader
	*Writer
}

func NewPipe() *Pipe {
	return &Pipe{Reader: &Reader{}, Writer: &Writer{}}
}

func (p *Pipe) Close() {
	p.Write("")
	p.Reader.Read()
}
