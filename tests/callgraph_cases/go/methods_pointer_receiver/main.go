// A constructor function returning a pointer and methods calling each other through
// the receiver (strings.Builder: WriteString -> grow -> copyCheck).
package main

import "fmt"

func main() {
	b := NewBuffer(4)
	b.WriteString("hello")
	fmt.Println(b.Len())
}
