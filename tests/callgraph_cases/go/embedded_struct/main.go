// A struct embedding two pointer types whose methods are promoted to it
// (bufio.ReadWriter embedding *Reader and *Writer).
package main

import "example.com/app/rw"

func main() {
	p := rw.NewPipe()
	p.Write("x")
	p.Read()
	p.Close()
}
