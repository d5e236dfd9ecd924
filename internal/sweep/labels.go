package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// labels.txt is the ground truth for recall: what a person found by
// reading a module's lock code, before and apart from lockvet's output.
// One entry a line:
//
//	bug MODULE FILE:LINE[,LINE…] CHECK -- SHAPE; why it is a bug
//	ok  MODULE FILE:LINE[,LINE…] -     -- SHAPE; why it is correct
//
// A bug label names the check that should report it (LV101…LV204) and
// the line(s) where that check reports: the line of the call it
// diagnoses (the EXPIRE for LV101/LV203, the DEL for LV201/LV202, the
// acquire for LV103/LV204, the misread acquire or its call site for
// LV105, the TTL for LV104); more than one line when either is right. An
// ok label marks lock code that is correct: no finding may land on its
// lines. SHAPE is the text before the first "; ".
//
// A finding matches a bug label when module, file, line and check are
// the same; the sweep reports, for each labelled module, the bugs found
// and missed, the correct sites flagged, and the findings that match no
// label.

type label struct {
	bug     bool // false: correct lock code
	module  string
	file    string
	lines   []int
	check   string // "" for ok
	shape   string
	note    string
	lineNo  int
	matched []*finding
}

func (l *label) String() string {
	kind := "ok"
	if l.bug {
		kind = "bug " + l.check
	}
	return fmt.Sprintf("line %d: %s %s %s:%s", l.lineNo, kind, l.module, l.file, joinInts(l.lines))
}

func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ",")
}

var checkRE = regexp.MustCompile(`^LV[12]0[1-5]$`)

type labels struct {
	list []*label
}

func readLabels(file string) (*labels, error) {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return &labels{}, nil
	}
	if err != nil {
		return nil, err
	}
	ls := &labels{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("%s:%d: %s: %q", file, i+1, why, line) }
		head, text, ok := strings.Cut(line, " -- ")
		if !ok {
			return nil, bad("no \" -- \" before the shape")
		}
		fields := strings.Fields(head)
		if len(fields) != 4 {
			return nil, bad("want KIND MODULE FILE:LINE CHECK")
		}
		l := &label{module: fields[1], lineNo: i + 1}
		switch fields[0] {
		case "bug":
			if !checkRE.MatchString(fields[3]) {
				return nil, bad("a bug label names its check (LV101…LV204)")
			}
			l.bug, l.check = true, fields[3]
		case "ok":
			if fields[3] != "-" {
				return nil, bad("an ok label has - for its check")
			}
		default:
			return nil, bad("kind is bug or ok")
		}
		f, lines, ok := strings.Cut(fields[2], ":")
		if !ok || f == "" {
			return nil, bad("want FILE:LINE")
		}
		l.file = f
		for s := range strings.SplitSeq(lines, ",") {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				return nil, bad("want FILE:LINE[,LINE…]")
			}
			l.lines = append(l.lines, n)
		}
		shape, note, _ := strings.Cut(strings.TrimSpace(text), "; ")
		l.shape, l.note = strings.TrimSpace(shape), strings.TrimSpace(note)
		if l.shape == "" {
			return nil, bad("no shape")
		}
		ls.list = append(ls.list, l)
	}
	return ls, nil
}

// of lists the labels of a module.
func (ls *labels) of(m *module) []*label {
	var out []*label
	for _, l := range ls.list {
		if l.module == m.String() {
			out = append(out, l)
		}
	}
	return out
}

// check verifies that each label of m names a file of the module and
// lines within it (dir is the module's source root). A label that does
// not is an error of the module: the sweep fails on it.
func (ls *labels) check(m *module, dir string) {
	for _, l := range ls.of(m) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(l.file)))
		if err != nil {
			m.errors = append(m.errors, &lvError{text: fmt.Sprintf("sweep: labels.txt %s: %v", l, err)})
			continue
		}
		n := strings.Count(string(data), "\n") + 1
		if slices.Max(l.lines) > n {
			m.errors = append(m.errors, &lvError{text: fmt.Sprintf("sweep: labels.txt %s: the file has %d lines", l, n)})
		}
	}
}

// score is how lockvet did on one module's labels.
type score struct {
	bugs, found       int      // bug labels, and those a finding matched
	missed            []*label // bug labels no finding matched
	correct, flagged  int      // ok labels, and those a finding landed on
	flaggedOK         []*label
	findings          int        // all findings of the module
	onBug, unlabelled int        // findings matching a bug label; matching no label
	unmatched         []*finding // findings matching no label (bug or ok)
	verdicts          map[string]int
}

// add sums the counts of s into t (not the lists).
func (t *score) add(s score) {
	t.bugs += s.bugs
	t.found += s.found
	t.correct += s.correct
	t.flagged += s.flagged
	t.findings += s.findings
	t.onBug += s.onBug
	t.unlabelled += s.unlabelled
	if t.verdicts == nil {
		t.verdicts = map[string]int{}
	}
	for k, v := range s.verdicts {
		t.verdicts[k] += v
	}
}

// apply matches m's findings with its labels.
func (ls *labels) apply(m *module) score {
	s := score{findings: len(m.findings), verdicts: map[string]int{}}
	mine := ls.of(m)
	for _, l := range mine {
		l.matched = nil
	}
	for _, f := range m.findings {
		if f.note != nil {
			s.verdicts[f.note.verdict]++
		}
		hit := false
		for _, l := range mine {
			if l.file != f.file || !slices.Contains(l.lines, f.line) || l.bug && l.check != f.rule {
				continue
			}
			l.matched = append(l.matched, f)
			hit = true
			if l.bug {
				s.onBug++
			}
		}
		if !hit {
			s.unlabelled++
			s.unmatched = append(s.unmatched, f)
		}
	}
	for _, l := range mine {
		switch {
		case l.bug:
			s.bugs++
			if len(l.matched) > 0 {
				s.found++
			} else {
				s.missed = append(s.missed, l)
			}
		default:
			s.correct++
			if len(l.matched) > 0 {
				s.flagged++
				s.flaggedOK = append(s.flaggedOK, l)
			}
		}
	}
	return s
}

// known fails when a label names a module that modules.txt does not
// list (a typo there would silently drop the label from every count).
func (ls *labels) known(mods []*module) error {
	names := map[string]bool{}
	for _, m := range mods {
		names[m.String()] = true
	}
	for _, l := range ls.list {
		if !names[l.module] {
			return fmt.Errorf("labels.txt %s: module not in modules.txt", l)
		}
	}
	return nil
}

// recallLine sums the scores of the modules that ran and have labels:
// "" when none has.
func recallLine(mods []*module, ls *labels) string {
	var t score
	n := 0
	for _, m := range mods {
		if len(ls.of(m)) == 0 || m.unfetched {
			continue
		}
		n++
		t.add(ls.apply(m))
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("labels: %d modules, %d labelled bugs, %d found (recall %s), %d correct lock sites, %d flagged, %d findings, %d matching no label",
		n, t.bugs, t.found, ratio(t.found, t.bugs), t.correct, t.flagged, t.findings, t.unlabelled)
}

// ratio is a/b as a percentage, or "n/a" when b is 0.
func ratio(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d%%", (100*a+b/2)/b)
}
