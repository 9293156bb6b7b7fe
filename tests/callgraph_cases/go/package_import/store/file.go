package store

import "strings"

func openFile(path string) *DB {
	return &DB{path: clean(path)}
}

func clean(p string) string {
	return strings.TrimSpace(p)
}
