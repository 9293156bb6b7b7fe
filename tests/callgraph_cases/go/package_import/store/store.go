package store

import "errors"

type DB struct {
	path string
}

var errEmpty = errors.New("empty path")

func Open(path string) (*DB, error) {
	if path == "" {
		return nil, errEmpty
	}
	return openFile(path), nil
}

func Name(db *DB) string {
	return clean(db.path)
}
