package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"
)

// actionLint lints the workflow files of repo's .github/workflows with
// actionlint (its own rules; shellcheck and pyflakes only where installed)
// and fails on any error.
func actionLint(t *testing.T, repo string, files ...string) {
	t.Helper()
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := actionlint.NewProject(repo)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(files, proj)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) > 0 {
		t.Errorf("actionlint: %d error(s)\n%s", len(errs), out.String())
	}
}

// TestAction: action.yml is a composite action whose steps and inputs
// pass actionlint, checked two ways in a scratch repository: a workflow
// that uses the action (actionlint reads the local action's metadata and
// checks the inputs given), and the action's steps as a reusable
// workflow's job, with the action's inputs as the workflow's, so that
// actionlint checks every expression, step and shell script of the
// action itself.
func TestAction(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string           `yaml:"using"`
			Steps []map[string]any `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", action.Runs.Using)
	}
	for _, want := range []string{"packages", "checks", "baseline", "working-directory", "format"} {
		if _, ok := action.Inputs[want]; !ok {
			t.Errorf("action.yml has no input %q", want)
		}
	}
	var installs, runs bool
	for _, s := range action.Runs.Steps {
		run, _ := s["run"].(string)
		if run != "" && s["shell"] == nil {
			t.Errorf("step %v: a composite action's run step needs a shell", s["name"])
		}
		installs = installs || strings.Contains(run, "go install ./cmd/lockvet") && s["working-directory"] == "${{ github.action_path }}"
		runs = runs || strings.Contains(run, "lockvet -format sarif") && strings.Contains(run, "lockvet -format github")
	}
	if !installs || !runs {
		t.Errorf("action.yml must install lockvet from the action's own ref and run it with sarif or github output")
	}

	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	wf := filepath.Join(repo, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "action.yml"), data, 0o644); err != nil {
		t.Fatal(err)
	}

	// The action used by a workflow, with every input.
	uses := `name: use
on: [pull_request]
permissions:
  contents: read
jobs:
  lockvet:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      security-events: write
    steps:
      - uses: actions/checkout@v4
      - id: lv
        uses: ./
        with:
`
	var names []string
	for name := range action.Inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		uses += "          " + name + ": " + yamlString(action.Inputs[name].Default) + "\n"
	}
	uses += "      - run: echo \"exit ${{ steps.lv.outputs.exit-code }}, ${{ steps.lv.outputs.sarif-file }}\"\n"

	// The action's steps as a reusable workflow's job.
	type input struct {
		Description string `yaml:"description"`
		Type        string `yaml:"type"`
		Default     string `yaml:"default"`
	}
	inputs := map[string]input{}
	for name, in := range action.Inputs {
		inputs[name] = input{in.Description, "string", in.Default}
	}
	steps, err := yaml.Marshal(map[string]any{
		"name":        "steps",
		"on":          map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"permissions": map[string]any{"contents": "read", "security-events": "write"},
		"jobs":        map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": action.Runs.Steps}},
	})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"use.yml": []byte(uses), "steps.yml": steps}
	var paths []string
	for name, content := range files {
		p := filepath.Join(wf, name)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	actionLint(t, repo, paths...)

	// actionlint does find errors here: a misspelled input, and an
	// expression on an output the action does not have.
	bad := strings.Replace(uses, "          packages:", "          package:", 1)
	bad = strings.Replace(bad, "outputs.exit-code", "outputs.exitcode", 1)
	p := filepath.Join(wf, "bad.yml")
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) < 2 {
		t.Errorf("actionlint found %d error(s) in a workflow with two: the check proves nothing\n%s", len(errs), out.String())
	}
}

// yamlString quotes s for a YAML mapping value.
func yamlString(s string) string {
	b, _ := yaml.Marshal(s)
	return strings.TrimSpace(string(b))
}
