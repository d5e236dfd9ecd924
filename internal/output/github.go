package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/findings"
)

// -format github prints GitHub Actions workflow commands: each finding
// becomes an annotation on its file and lines in the pull request and the
// run summary,
//
//	::error file=jobs/run.go,line=41,col=3,endLine=41,endColumn=30,title=LV101::message
//
// at the level of the rule's severity. Related positions and the
// documentation link follow the message on lines of their own. Paths are
// relative to the repository root, where the workflow checks out the code.

// GitHub prints the findings and error lines of res.
func GitHub(w io.Writer, res *findings.Result, root string) {
	for _, e := range res.Errors {
		fmt.Fprintf(w, "::error title=%s::%s\n", escapeProperty("lockvet"), escapeData(e))
	}
	for _, f := range res.Findings {
		level, url := "warning", ""
		if r := analyzer.Lookup(f.Rule()); r != nil {
			level, url = string(r.Severity), r.URL()
			if level != "error" && level != "warning" {
				level = "warning"
			}
		}
		fset := f.Pkg.Fset
		start := fset.Position(f.Diag.Pos)
		file := start.Filename
		if rel, ok := relTo(root, file); ok {
			file = rel
		}
		props := []string{
			"file=" + escapeProperty(file),
			fmt.Sprintf("line=%d", start.Line),
			fmt.Sprintf("col=%d", columnAt(res, fset, f.Diag.Pos)),
		}
		if f.Diag.End.IsValid() && f.Diag.End > f.Diag.Pos {
			end := fset.Position(f.Diag.End)
			props = append(props, fmt.Sprintf("endLine=%d", end.Line))
			if end.Line == start.Line {
				// GitHub takes endColumn only on one-line annotations.
				props = append(props, fmt.Sprintf("endColumn=%d", columnAt(res, fset, f.Diag.End)))
			}
		}
		props = append(props, "title="+escapeProperty(f.Rule()))

		msg := f.Diag.Message
		for _, r := range f.Diag.Related {
			p := fset.Position(r.Pos)
			name := p.Filename
			if rel, ok := relTo(root, name); ok {
				name = rel
			}
			msg += fmt.Sprintf("\n%s:%d:%d: %s", name, p.Line, columnAt(res, fset, r.Pos), r.Message)
		}
		if url != "" {
			msg += "\n" + url
		}
		fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(msg))
	}
}

// escapeData escapes a workflow command's message, as @actions/core does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value, which also
// cannot hold the separators ':' and ','.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
