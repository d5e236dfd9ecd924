package output

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
)

// The tests format, in the test's process, what the driver found on the
// example module (analysed once for all of them), on its clean package
// and on a module with a broken package, and read each output back with
// the parser its consumers use.

func TestMain(m *testing.M) { clitest.Main(m) }

// TestText: the text output of the example module is exactly the marked
// lines, sorted, each with the rule ID, and related positions indented.
func TestText(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	Text(&b, clitest.ExampleDir(), clitest.Example(t).Findings)
	got := clitest.ParseText(t, b.String())
	clitest.SameMarkers(t, got, clitest.Markers(t, clitest.ExampleDir(), clitest.MarkerSet{}))
	if !slices.IsSortedFunc(got, func(a, b clitest.Marker) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	}) {
		t.Errorf("findings not sorted by position:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "\n\t") {
		t.Errorf("no related position printed:\n%s", b.String())
	}
}

// TestJSON: the JSON output has the go vet -json shape and the same
// findings, with their fixes, each listed once under the package's test
// variant (never the generated test main).
func TestJSON(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := JSON(&b, clitest.Example(t)); err != nil {
		t.Fatal(err)
	}
	got, diags := clitest.ParseJSON(t, clitest.ExampleDir(), b.String())
	clitest.SameMarkers(t, got, clitest.Markers(t, clitest.ExampleDir(), clitest.MarkerSet{}))
	fixes := 0
	for _, d := range diags {
		fixes += len(d.SuggestedFixes)
	}
	if fixes == 0 {
		t.Error("no suggested fix in the JSON output")
	}
	var tree map[string]any
	json.Unmarshal(b.Bytes(), &tree)
	for id := range tree {
		if strings.HasSuffix(id, ".test") {
			t.Errorf("generated test main analyzed: %s", id)
		}
	}
}

// TestJSONLoadError: a run that loaded nothing is one package error in
// go vet -json's tree, under the patterns.
func TestJSONLoadError(t *testing.T) {
	var b bytes.Buffer
	if err := JSONLoadError(&b, []string{"./a/...", "./b"}, "go: no module"); err != nil {
		t.Fatal(err)
	}
	if want := "{\n\t\"./a/... ./b\": {\n\t\t\"lockvet\": {\n\t\t\t\"error\": \"go: no module\"\n\t\t}\n\t}\n}\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
