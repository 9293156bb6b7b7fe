// A renamed import of an internal package (cmd/go's `cfg "cmd/go/internal/cfg"`
// style) and a standard-library package function.
package main

import (
	"fmt"
	"strings"

	su "example.com/app/internal/strutil"
)

func main() {
	s := su.Reverse("abc")
	fmt.Println(strings.ToUpper(s), su.IsPalindrome(s))
}
