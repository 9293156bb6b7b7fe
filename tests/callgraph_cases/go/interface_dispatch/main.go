// A call through an interface value: the method that runs is the one of the
// dynamic type (sort.Sort calling data.Len / data.Less / data.Swap). Square exists
// but is never stored in the interface.
package main

import (
	"fmt"

	"example.com/app/shapes"
)

func main() {
	var s shapes.Shape = shapes.Circle{R: 2}
	fmt.Println(shapes.Describe(s))
	fmt.Println(s.Area())
}
