package golangci

import (
	"cmp"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// collected is the result of a check run by the plugin: its diagnostics,
// which it does not report itself, and the check's own result.
type collected struct {
	diags  []analysis.Diagnostic
	result any
}

// collecting returns a copy of a that keeps its diagnostics in its result
// instead of reporting them, for the plugin's one reporting analyzer.
func collecting(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.ResultType = reflect.TypeFor[*collected]()
	run := a.Run
	w.Run = func(pass *analysis.Pass) (any, error) {
		c := &collected{}
		p := *pass
		p.Report = func(d analysis.Diagnostic) { c.diags = append(c.diags, d) }
		res, err := run(&p)
		c.result = res
		return c, err
	}
	return &w
}

// Merge turns lockvet's diagnostics into what golangci-lint shows well,
// one issue per diagnostic line: each message starts with its check ID
// (the diagnostic's Category), each related position is folded into the
// message ("lock acquired here" becomes "lock acquired at
// cache/lock.go:9", with rel naming the file), and the diagnostics of one
// line are merged into one, at the first one's position, whose message
// names each in turn ("LV105: …; and LV202 at column 3: …") and which
// carries the first suggested fix of each. The result is sorted by
// position.
func Merge(fset *token.FileSet, ds []analysis.Diagnostic, rel func(string) string) []analysis.Diagnostic {
	type item struct {
		pos token.Position
		d   analysis.Diagnostic
	}
	items := make([]item, len(ds))
	for i, d := range ds {
		items[i] = item{fset.Position(d.Pos), d}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.pos.Filename, b.pos.Filename), cmp.Compare(a.pos.Line, b.pos.Line),
			cmp.Compare(a.pos.Column, b.pos.Column), cmp.Compare(a.d.Category, b.d.Category), cmp.Compare(a.d.Message, b.d.Message))
	})
	var out []analysis.Diagnostic
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[j].pos.Filename == items[i].pos.Filename && items[j].pos.Line == items[i].pos.Line {
			j++
		}
		first := items[i]
		d := analysis.Diagnostic{Pos: first.d.Pos, End: first.d.End, Category: first.d.Category, URL: first.d.URL}
		var msg strings.Builder
		for k, it := range items[i:j] {
			if k > 0 {
				msg.WriteString("; and ")
				if it.pos.Column != first.pos.Column {
					fmt.Fprintf(&msg, "%s at column %d: ", it.d.Category, it.pos.Column)
				} else {
					msg.WriteString(it.d.Category + ": ")
				}
			} else {
				msg.WriteString(it.d.Category + ": ")
			}
			msg.WriteString(fold(fset, it.d, rel))
			if len(it.d.SuggestedFixes) > 0 {
				d.SuggestedFixes = append(d.SuggestedFixes, it.d.SuggestedFixes[0])
			}
		}
		d.Message = msg.String()
		out = append(out, d)
		i = j
	}
	return out
}

var here = regexp.MustCompile(`\bhere\b`)

// fold returns d's message with its related positions appended, each as
// its message with "here" replaced by where it is.
func fold(fset *token.FileSet, d analysis.Diagnostic, rel func(string) string) string {
	msg := d.Message
	for _, r := range d.Related {
		p := fset.Position(r.Pos)
		at := fmt.Sprintf("%s:%d", rel(p.Filename), p.Line)
		m := strings.TrimSpace(r.Message)
		if loc := here.FindStringIndex(m); loc != nil {
			m = m[:loc[0]] + "at " + at + m[loc[1]:]
		} else {
			m += " (" + at + ")"
		}
		msg += "; " + m
	}
	return msg
}

var modRoots sync.Map // directory → its module's root, or ""

// moduleRel returns file relative to the root of its module (the nearest
// directory above it with a go.mod), as golangci-lint shows paths when it
// runs there; the file's base name when no go.mod is found.
func moduleRel(file string) string {
	dir := filepath.Dir(file)
	root, ok := modRoots.Load(dir)
	if !ok {
		r := ""
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				r = d
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
		modRoots.Store(dir, r)
		root = r
	}
	if r := root.(string); r != "" {
		if p, err := filepath.Rel(r, file); err == nil {
			return filepath.ToSlash(p)
		}
	}
	return filepath.Base(file)
}

// DropConflicts removes, from diagnostics in order, every suggested fix
// whose edits clash with the edits of a fix kept before it in the same
// file, so that golangci-lint --fix can apply all that is left.
// golangci-lint applies every edit of every lockvet issue of a file at
// once: it skips the whole file when two edits overlap, and applies two
// different insertions at one offset one after the other, in no order
// the fixes were written for (two checks each inserting a statement
// before the same acquire made code that did not compile). The lockvet
// command and go vet apply fixes one at a time and skip a conflicting
// one the same way; the finding stays, and a second --fix takes it.
// Edits equal to a kept edit are no clash (checks share one token fix).
func DropConflicts(fset *token.FileSet, ds []analysis.Diagnostic) []analysis.Diagnostic {
	type span struct {
		start, end token.Pos
		text       string
	}
	kept := map[*token.File][]span{}
	clash := func(a, b span) bool {
		if a == b {
			return false
		}
		if a.start == b.start {
			return true // two insertions (or edits) starting at one offset
		}
		return a.start < b.end && b.start < a.end
	}
	for i := range ds {
		fixes := ds[i].SuggestedFixes[:0:0]
		for _, fix := range ds[i].SuggestedFixes {
			ok := true
			for _, e := range fix.TextEdits {
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				s := span{e.Pos, end, string(e.NewText)}
				for _, k := range kept[fset.File(e.Pos)] {
					if clash(s, k) {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			for _, e := range fix.TextEdits {
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				f := fset.File(e.Pos)
				kept[f] = append(kept[f], span{e.Pos, end, string(e.NewText)})
			}
			fixes = append(fixes, fix)
		}
		ds[i].SuggestedFixes = fixes
	}
	return ds
}
