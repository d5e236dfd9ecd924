package gates

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lockvet/lockvet/internal/findings"
)

// -new-from-rev REV keeps the findings in code changed since REV: a
// finding is new when a line of its enclosing top-level declaration
// changed (or, outside any declaration, one of its own lines), or a line
// of the declaration around one of its related positions. A change to the
// EXPIRE line alone thus still shows the SETNX+EXPIRE finding, and so
// does a change to the SETNX line. Changes are what `git diff REV` shows
// (commits since REV, staged and unstaged edits); files git does not
// track count as changed throughout.

// Changes are the lines changed since a revision, per file.
type Changes struct {
	root    string                 // the repository's top directory
	lines   map[string][]lineRange // slash path relative to root → changed new-side lines
	tracked map[string]bool        // files git tracks, slash paths relative to root
}

// lineRange is the lines from..to (1-based, inclusive).
type lineRange struct{ from, to int }

// GitChanges asks git what changed in dir's repository since rev.
func GitChanges(dir, rev string) (*Changes, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev: %v", err)
	}
	c := &Changes{root: strings.TrimSpace(string(top)), lines: map[string][]lineRange{}, tracked: map[string]bool{}}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("-new-from-rev: %q is not a revision", rev)
	}
	if _, err := git(c.root, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("-new-from-rev: %q is not a commit in %s", rev, c.root)
	}
	diff, err := git(c.root, "-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--src-prefix=a/", "--dst-prefix=b/", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev: %v", err)
	}
	if c.lines, err = parseUnifiedZero(diff); err != nil {
		return nil, fmt.Errorf("-new-from-rev: git diff: %v", err)
	}
	files, err := git(c.root, "ls-files", "-z", "--full-name")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev: %v", err)
	}
	for name := range strings.SplitSeq(string(files), "\x00") {
		if name != "" {
			c.tracked[name] = true
		}
	}
	return c, nil
}

// git runs git in dir and returns its standard output. git diff would
// refresh the stat data of a stale index, a write to the repository that
// lockvet promises not to make: diff.autoRefreshIndex=false stops that
// (--no-optional-locks does not, for diff), and no other optional lock
// is taken.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--no-optional-locks", "-c", "diff.autoRefreshIndex=false"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

// parseUnifiedZero reads the output of git diff -U0: for each file of the
// new side, the lines added or changed. A deletion marks the lines on
// both sides of the gap it leaves, so that deleting lines inside a
// function changes that function.
func parseUnifiedZero(diff []byte) (map[string][]lineRange, error) {
	out := map[string][]lineRange{}
	file := ""
	body := 0 // lines of the current hunk still to skip
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if body > 0 {
			if !strings.HasPrefix(line, "\\") { // "\ No newline at end of file"
				body--
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			file = ""
		case strings.HasPrefix(line, "+++ "):
			name := strings.TrimPrefix(line, "+++ ")
			if strings.HasPrefix(name, `"`) {
				unq, err := strconv.Unquote(name)
				if err != nil {
					return nil, fmt.Errorf("bad file name %s", name)
				}
				name = unq
			}
			if name == "/dev/null" {
				file = "" // deleted
				continue
			}
			file = strings.TrimPrefix(name, "b/")
			if _, ok := out[file]; !ok {
				out[file] = nil
			}
		case strings.HasPrefix(line, "@@ "):
			// @@ -a[,b] +c[,d] @@
			fields := strings.Fields(line)
			if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
				return nil, fmt.Errorf("bad hunk header %q", line)
			}
			_, deleted, err1 := hunkRangeOf(fields[1][1:])
			start, added, err2 := hunkRangeOf(fields[2][1:])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("bad hunk header %q", line)
			}
			body = deleted + added
			if file == "" {
				continue
			}
			r := lineRange{start, start + added - 1}
			if added == 0 { // lines deleted after line start
				r = lineRange{start, start + 1}
			}
			out[file] = append(out[file], r)
		}
	}
	return out, sc.Err()
}

func hunkRangeOf(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	if start < 0 || count < 0 {
		return 0, 0, errors.New("negative")
	}
	return start, count, nil
}

// touched reports whether any of the lines from..to of file (an absolute
// path) changed.
func (c *Changes) touched(file string, from, to int) bool {
	rel, ok := c.rel(file)
	if !ok {
		return true // outside the repository: nothing says it is old
	}
	ranges, inDiff := c.lines[rel]
	if !inDiff {
		return !c.tracked[rel]
	}
	for _, r := range ranges {
		if r.from <= to && from <= r.to {
			return true
		}
	}
	return false
}

// rel is file relative to the repository root, slash-separated.
func (c *Changes) rel(file string) (string, bool) {
	if real, err := filepath.EvalSymlinks(file); err == nil {
		file = real
	}
	rel, err := filepath.Rel(c.root, file)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// isNew reports whether the finding lies in changed code: its own lines,
// or the top-level declaration around it or around a related position.
func (c *Changes) isNew(f *findings.Finding) bool {
	type span struct{ pos, end token.Pos }
	spans := []span{{f.Diag.Pos, f.Diag.End}}
	for _, r := range f.Diag.Related {
		spans = append(spans, span{r.Pos, r.End})
	}
	fset := f.Pkg.Fset
	for _, s := range spans {
		if !s.pos.IsValid() {
			continue
		}
		from, to := fset.Position(s.pos), fset.Position(max(s.end, s.pos))
		if decl := f.EnclosingDecl(s.pos); decl != nil {
			from, to = fset.Position(decl.Pos()), fset.Position(decl.End())
		}
		if from.Filename != "" && c.touched(from.Filename, from.Line, max(to.Line, from.Line)) {
			return true
		}
	}
	return false
}

// NewFindings keeps the findings in changed code.
func (c *Changes) NewFindings(fs []*findings.Finding) []*findings.Finding {
	var out []*findings.Finding
	for _, f := range fs {
		if c.isNew(f) {
			out = append(out, f)
		}
	}
	return out
}
