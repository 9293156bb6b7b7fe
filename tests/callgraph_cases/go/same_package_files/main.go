// One package spread over several files (as strings.go / builder.go / reader.go
// make up package strings): calls between them need no import.
package main

import "fmt"

func main() {
	words := split("a b c")
	fmt.Println(count(words))
}

func count(ws []string) int {
	return len(ws)
}
