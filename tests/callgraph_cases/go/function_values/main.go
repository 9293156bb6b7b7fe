// A function type with a method that calls the function (http.HandlerFunc.ServeHTTP),
// and a named function passed as an argument and called by the callee.
package main

import "fmt"

type HandlerFunc func(string) string

func (f HandlerFunc) Serve(req string) string {
	return f(req)
}

func hello(req string) string { return "hello " + req }

func shout(s string) string { return s + "!" }

func apply(xs []string, fn func(string) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, fn(x))
	}
	return out
}

func main() {
	h := HandlerFunc(hello)
	fmt.Println(h.Serve("bob"))
	fmt.Println(apply([]string{"a"}, shout))
}
