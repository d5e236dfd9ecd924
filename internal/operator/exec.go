package operator

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/lockvet/lockvet/internal/driver"
)

// liveBinary is the binary of the commands that talk to a running Redis
// (cmd/lockvet-live).
const liveBinary = "lockvet-live"

// Live runs the lockvet-live binary's command name (live or release)
// with args, as lockvet live and lockvet release: the binary next to the
// running lockvet, else the one on PATH. On Unix it takes this process's
// place (its output, exit status and signals are lockvet's); it returns
// only when it could not be started.
func Live(name string, args []string, stderr io.Writer) int {
	bin := ""
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), liveBinary); isExecutable(p) {
			bin = p
		}
	}
	if bin == "" {
		p, err := exec.LookPath(liveBinary)
		if err != nil {
			fmt.Fprintf(stderr, "lockvet %s: this command is in the %s binary, found neither next to lockvet nor on PATH; install it with go install github.com/lockvet/lockvet/cmd/%s@latest\n", name, liveBinary, liveBinary)
			return driver.ExitError
		}
		bin = p
	}
	err := run(bin, append([]string{liveBinary, name}, args...))
	fmt.Fprintf(stderr, "lockvet %s: running %s: %v\n", name, bin, err)
	return driver.ExitError
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
