package main

import (
	"os"
	"path/filepath"
	"strings"
)

// moduleHint adds advice to the go command's error for patterns in a
// directory that belongs to no module.
func moduleHint(dir, msg string) string {
	if !strings.Contains(msg, "does not contain main module") && !strings.Contains(msg, "go.mod file not found") {
		return msg
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range []string{"go.mod", "go.work"} {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return msg
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return msg + " (no go.mod in " + dir + " or any parent: run lockvet in a Go module, or name one with -C)"
}
