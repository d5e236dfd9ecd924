//go:build !unix

package operator

import (
	"errors"
	"os"
	"os/exec"
)

// run runs bin with lockvet's standard streams and exits with its
// status; it returns only when bin could not be started.
func run(bin string, argv []string) error {
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err == nil || errors.As(err, &ee) {
		os.Exit(cmd.ProcessState.ExitCode())
	}
	return err
}
