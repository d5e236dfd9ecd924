package output

import (
	"fmt"
	"go/token"
	"io"

	"github.com/lockvet/lockvet/internal/findings"
)

// Text prints findings as "file:line:col: ID: message", file relative
// to dir, with related positions indented on the lines that follow.
func Text(w io.Writer, dir string, fs []*findings.Finding) {
	pos := func(p token.Position) string {
		return fmt.Sprintf("%s:%d:%d", findings.Rel(dir, p.Filename), p.Line, p.Column)
	}
	for _, f := range fs {
		fmt.Fprintf(w, "%s: %s: %s\n", pos(f.Posn), f.Rule(), f.Diag.Message)
		for _, r := range f.Diag.Related {
			fmt.Fprintf(w, "\t%s: %s\n", pos(f.Pkg.Fset.Position(r.Pos)), r.Message)
		}
	}
}
