// Function literals: one stored in a variable and called, one passed to a function
// that calls it (sync.Once.Do(f), sort.Slice(x, less)).
package main

import "fmt"

func main() {
	double := func(x int) int { return scale(x, 2) }
	fmt.Println(double(3))
	each([]int{1, 2}, func(v int) {
		report(v)
	})
}

func scale(x, k int) int { return x * k }

func each(xs []int, f func(int)) {
	for _, x := range xs {
		f(x)
	}
}

func report(v int) { fmt.Println(v) }
