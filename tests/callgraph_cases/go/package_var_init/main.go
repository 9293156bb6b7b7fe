// Package-level variables initialised by calls run when the package is loaded,
// credited to the package (log's `var std = New(os.Stderr, "", LstdFlags)`).
package main

import "fmt"

type Logger struct {
	prefix string
}

func New(prefix string) *Logger {
	return &Logger{prefix: normalize(prefix)}
}

func normalize(p string) string {
	if p == "" {
		return "> "
	}
	return p
}

func (l *Logger) Print(s string) {
	fmt.Println(l.prefix + s)
}

var std = New("")

func main() {
	std.Print("ready")
}
