//go:build unix

package operator

import (
	"os"
	"syscall"
)

// run replaces this process with bin; it returns only on failure.
func run(bin string, argv []string) error {
	return syscall.Exec(bin, argv, os.Environ())
}
