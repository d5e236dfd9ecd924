package output

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/findings"
)

// -format checkstyle prints Checkstyle XML, which Jenkins' warnings plugin
// and reviewdog (-f=checkstyle) read: a <file> per file, an <error> per
// finding with line, column, severity, message and source
// ("lockvet.LV101"). Paths, related positions and suppressed findings are
// as in -format codeclimate.

type checkstyleReport struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// Checkstyle prints the findings of res as Checkstyle XML, files in
// the order of their first finding (the findings are sorted by position).
func Checkstyle(w io.Writer, res *findings.Result, root string) error {
	rep := checkstyleReport{Version: "4.3"}
	index := map[string]int{}
	for _, f := range res.Findings {
		fset := f.Pkg.Fset
		start := fset.Position(f.Diag.Pos)
		name := gatePath(root, start.Filename)
		i, ok := index[name]
		if !ok {
			i = len(rep.Files)
			index[name] = i
			rep.Files = append(rep.Files, checkstyleFile{Name: name})
		}
		severity := "warning"
		if r := analyzer.Lookup(f.Rule()); r != nil && r.Severity == "error" {
			severity = "error"
		}
		rep.Files[i].Errors = append(rep.Files[i].Errors, checkstyleError{
			Line:     start.Line,
			Column:   columnAt(res, fset, f.Diag.Pos),
			Severity: severity,
			Message:  f.Rule() + ": " + gateMessage(res, root, f),
			Source:   "lockvet." + f.Rule(),
		})
	}
	data, err := xml.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, data)
	return err
}
