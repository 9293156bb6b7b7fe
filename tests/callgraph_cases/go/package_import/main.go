// A package-qualified call into another package of the module, whose exported
// function calls unexported helpers in the package's other files (os.Open ->
// openFileNolog).
package main

import (
	"fmt"

	"example.com/app/store"
)

func main() {
	db, err := store.Open("data.db")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(store.Name(db))
}
