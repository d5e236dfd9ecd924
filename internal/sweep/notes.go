package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// notes.txt records what a person concluded after reading the sweep's
// output. One entry a line:
//
//	finding MODULE FILE:LINE RULE -- bug: why it is a real bug
//	finding MODULE FILE:LINE RULE -- fp: why it is a false positive, and the cause
//	finding MODULE FILE:LINE RULE -- debatable: what speaks for and against it
//	fixed   MODULE FILE:LINE RULE -- a false positive the sweep found and a check no longer reports: what changed
//	error   MODULE TEXT -- why the package cannot be loaded
//
// MODULE is module@version as in modules.txt ("std" for the standard
// library; "*" in an error entry matches every module). TEXT is a
// substring of the error line. A finding or error without an entry makes
// the sweep fail.

type note struct {
	kind    string // finding, fixed, error
	module  string
	file    string
	line    int
	rule    string
	text    string // error: substring
	verdict string // bug, fp, debatable (findings)
	why     string
	lineNo  int
	used    bool
}

func (n *note) String() string {
	switch n.kind {
	case "error":
		return fmt.Sprintf("line %d: error %s %s", n.lineNo, n.module, n.text)
	}
	return fmt.Sprintf("line %d: %s %s %s:%d %s", n.lineNo, n.kind, n.module, n.file, n.line, n.rule)
}

type notes struct {
	list []*note
}

func readNotes(file string) (*notes, error) {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return &notes{}, nil
	}
	if err != nil {
		return nil, err
	}
	ns := &notes{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("%s:%d: %s: %q", file, i+1, why, line) }
		head, why, ok := strings.Cut(line, " -- ")
		if !ok {
			return nil, bad("no \" -- \" before the explanation")
		}
		n := &note{lineNo: i + 1, why: strings.TrimSpace(why)}
		fields := strings.Fields(head)
		if len(fields) < 3 {
			return nil, bad("too few fields")
		}
		n.kind, n.module = fields[0], fields[1]
		switch n.kind {
		case "error":
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(head), "error"))
			n.text = strings.TrimSpace(strings.TrimPrefix(rest, n.module))
		case "finding", "fixed":
			if len(fields) != 4 {
				return nil, bad("want KIND MODULE FILE:LINE RULE")
			}
			f, l, ok := strings.Cut(fields[2], ":")
			if n.line, err = strconv.Atoi(l); !ok || err != nil {
				return nil, bad("want FILE:LINE")
			}
			n.file, n.rule = f, fields[3]
			if n.kind == "finding" {
				v, w, ok := strings.Cut(n.why, ":")
				if !ok || (v != "bug" && v != "fp" && v != "debatable") {
					return nil, bad("a finding's explanation starts with bug:, fp: or debatable:")
				}
				n.verdict, n.why = v, strings.TrimSpace(w)
			}
		default:
			return nil, bad("unknown kind " + n.kind)
		}
		ns.list = append(ns.list, n)
	}
	return ns, nil
}

// apply attaches the notes to a module's findings and errors.
func (ns *notes) apply(m *module) {
	for _, f := range m.findings {
		for _, n := range ns.list {
			if n.kind == "finding" && n.module == m.String() && n.file == f.file && n.line == f.line && n.rule == f.rule {
				f.note, n.used = n, true
				break
			}
		}
	}
	for _, e := range m.errors {
		for _, n := range ns.list {
			if n.kind == "error" && (n.module == "*" || n.module == m.String()) && strings.Contains(e.text, n.text) {
				e.note, n.used = n, true
				break
			}
		}
	}
}

// fixed lists the fixed false positives of a module.
func (ns *notes) fixed(m *module) []*note {
	var out []*note
	for _, n := range ns.list {
		if n.kind == "fixed" && n.module == m.String() {
			out = append(out, n)
		}
	}
	return out
}

// unused lists the notes that matched nothing in a run of the modules
// (only those of the modules that ran, when partial).
func (ns *notes) unused(ran []*module, partial bool) []*note {
	names := map[string]bool{}
	for _, m := range ran {
		names[m.String()] = true
	}
	var out []*note
	for _, n := range ns.list {
		if n.used || n.kind == "fixed" || partial && !names[n.module] || n.module == "*" && partial {
			continue
		}
		out = append(out, n)
	}
	return out
}
