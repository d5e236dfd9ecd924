package output

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

// annotationRE is a workflow command line: ::level props::message.
var annotationRE = regexp.MustCompile(`^::(error|warning|notice) ([^:]*)::(.*)$`)

// unescapeCommand undoes escapeData and escapeProperty.
func unescapeCommand(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// github is res in the github format.
func github(res *findings.Result) string {
	var b strings.Builder
	GitHub(&b, res, SrcRoot(clitest.ExampleDir()))
	return b.String()
}

// TestGitHub: the github format prints one annotation per finding, at
// the marked line, with the rule ID as title and the rule's severity as
// level, paths relative to the repository root; and one per package
// error.
func TestGitHub(t *testing.T) {
	t.Parallel()
	exampleDir := clitest.ExampleDir()
	out := github(clitest.Example(t))
	root := SrcRoot(exampleDir)
	var got []clitest.Marker
	multiline := false
	for line := range strings.Lines(out) {
		m := annotationRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil {
			t.Errorf("not a workflow command: %q", line)
			continue
		}
		props := map[string]string{}
		for _, p := range strings.Split(m[2], ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok {
				t.Errorf("bad property %q in %q", p, line)
			}
			props[k] = unescapeCommand(v)
		}
		rule := analyzer.Lookup(props["title"])
		if rule == nil || m[1] != string(rule.Severity) {
			t.Errorf("title %q, level %s: want a rule ID and its severity", props["title"], m[1])
			continue
		}
		for _, k := range []string{"file", "line", "col", "endLine"} {
			if props[k] == "" {
				t.Errorf("%s: no %s", line, k)
			}
		}
		msg := unescapeCommand(m[3])
		if strings.ContainsAny(m[3], "\n\r") {
			t.Errorf("unescaped newline in %q", line)
		}
		if strings.Contains(msg, "\n") {
			multiline = true
		}
		if !strings.HasSuffix(msg, "\n"+rule.URL()) {
			t.Errorf("message does not end with the documentation link: %q", msg)
		}
		n, _ := strconv.Atoi(props["line"])
		rel, err := filepath.Rel(exampleDir, filepath.Join(root, filepath.FromSlash(props["file"])))
		if err != nil || filepath.IsAbs(props["file"]) {
			t.Errorf("file %q is not relative to the repository root %s", props["file"], root)
		}
		got = append(got, clitest.Marker{File: filepath.ToSlash(rel), Line: n, ID: rule.ID})
	}
	clitest.SameMarkers(t, got, clitest.Markers(t, exampleDir, clitest.MarkerSet{}))
	if !multiline {
		t.Error("no annotation lists related positions")
	}

	if out := github(clitest.Cached(t, exampleDir, "./internal/...")); out != "" {
		t.Errorf("clean run printed %q", out)
	}
	if out := github(clitest.Cached(t, clitest.BrokenDir(), "./...")); !strings.Contains(out, "::error title=lockvet::example.com/broken/bad: bad/bad.go:8:") {
		t.Errorf("the package error is not an annotation:\n%s", out)
	}
}

func TestEscapeCommand(t *testing.T) {
	if got, want := escapeData("100% sure\r\nnext: a,b"), "100%25 sure%0D%0Anext: a,b"; got != want {
		t.Errorf("escapeData = %q, want %q", got, want)
	}
	if got, want := escapeProperty("dir,1/a:b%.go\n"), "dir%2C1/a%3Ab%25.go%0A"; got != want {
		t.Errorf("escapeProperty = %q, want %q", got, want)
	}
	for _, s := range []string{"a%0Ab", "x:,%\n\r%25"} {
		if got := unescapeCommand(escapeProperty(s)); got != s {
			t.Errorf("round trip of %q gives %q", s, got)
		}
	}
}
