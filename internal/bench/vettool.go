//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// runVettool (-vettool) measures go vet ./... with its default analyzers
// against go vet -vettool=lockvet ./... (and, with -compare, against
// other vet tools: lockvet built at another commit, say) on each
// module, in two cases:
//
//   - full: every package analysed again, standard library included,
//     as in a first vet run on a warm build cache: each run has a
//     distinct inert flag value (-printf.funcs for go vet,
//     -safe-release-funcs for lockvet), which changes go vet's cache key;
//   - incremental: before each round, one file of every package of the
//     module gets a new comment and the packages are compiled (go vet
//     -assign ./..., untimed); then each tool runs with fixed flags, so
//     that the dependencies' results come from go vet's cache and the
//     module's packages are analysed again: a CI job on a warm cache.
//
// Every lockvet run is checked to have run the tool on some package
// (LOCKVET_INTERNAL_BENCH=vetlog); the number is printed.
func (b *bench) runVettool(mods []string) error {
	start := time.Now()
	if err := b.setup(); err != nil {
		return err
	}
	var compare []string
	for _, bin := range strings.Split(b.compare, ",") {
		if bin == "" {
			continue
		}
		abs, err := filepath.Abs(bin)
		if err != nil {
			return err
		}
		compare = append(compare, abs)
	}
	fmt.Fprintf(b.out, "go vet -vettool=lockvet against go vet, %s, %d round(s) per case\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), b.rounds)
	fmt.Fprintf(b.out, "lockvet: %s (this tree)", b.lockvet)
	if len(compare) > 0 {
		fmt.Fprintf(b.out, "; compare: %s", strings.Join(compare, ", "))
	}
	fmt.Fprintf(b.out, "\nload average at start: %s\n\n", loadavg())
	for _, m := range mods {
		if err := b.vettoolModule(m, compare); err != nil {
			return err
		}
	}
	fmt.Fprintf(b.out, "load average at end: %s; total %s\n", loadavg(), time.Since(start).Round(time.Second))
	return nil
}

func (b *bench) vettoolModule(spec string, compare []string) error {
	path, version, ok := strings.Cut(spec, "@")
	if !ok {
		return fmt.Errorf("module %q: want path@version", spec)
	}
	dir, err := b.prepare(path, version)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "== %s\n", spec)

	vettool := func(name, bin string, nonce bool) tool {
		return tool{name: name, vetLog: true, args: func(b *bench) []string {
			if !nonce {
				return []string{"go", "vet", "-vettool=" + bin, "./..."}
			}
			b.nonce++
			return []string{"go", "vet", "-vettool=" + bin,
				fmt.Sprintf("-safe-release-funcs=lockvetbench.invalid/nonce.F%d_%d:key=0", os.Getpid(), b.nonce), "./..."}
		}}
	}
	full := []tool{tools[2], vettool("lockvet", b.lockvet, true)}
	incr := []tool{
		{name: "go vet", args: func(*bench) []string { return []string{"go", "vet", "./..."} }},
		vettool("lockvet", b.lockvet, false),
	}
	names := []string{"lockvet"}
	for _, bin := range compare {
		name := filepath.Base(bin)
		names = append(names, name)
		full = append(full, vettool(name, bin, true))
		incr = append(incr, vettool(name, bin, false))
	}

	edit, restore, err := packageEditor(dir)
	if err != nil {
		return err
	}
	defer restore()
	compile := func() error {
		if out, err := command(dir, nil, "go", "vet", "-assign", "./...").CombinedOutput(); err != nil {
			return fmt.Errorf("go vet -assign ./...: %v\n%s", err, out)
		}
		return nil
	}

	fmt.Fprintf(b.out, "   warming the caches (one untimed run of each tool and case)...\n")
	for _, t := range append(append([]tool{}, full...), incr...) {
		if s, stderr := b.measure(dir, t); s.exit > 1 {
			return fmt.Errorf("%s exited %d during warm-up: %s", t.name, s.exit, firstLine(stderr))
		}
	}

	samples := map[string][]sample{}
	var errs []string
	for round := range b.rounds {
		for _, c := range []struct {
			name  string
			tools []tool
		}{{"full", full}, {"incremental", incr}} {
			if c.name == "incremental" {
				if err := edit(round); err != nil {
					return err
				}
				if err := compile(); err != nil {
					return err
				}
			}
			load := loadavg()
			var parts []string
			for i := range c.tools {
				t := c.tools[(i+round)%len(c.tools)]
				s, stderr := b.measure(dir, t)
				if s.exit > 1 || t.name == "go vet" && s.exit != 0 {
					errs = append(errs, fmt.Sprintf("round %d, %s: %s exited %d: %s", round+1, c.name, t.name, s.exit, firstLine(stderr)))
				}
				if t.vetLog && s.vetRuns == 0 {
					errs = append(errs, fmt.Sprintf("round %d, %s: go vet ran %s on no package (its result cache answered)", round+1, c.name, t.name))
				}
				samples[c.name+"/"+t.name] = append(samples[c.name+"/"+t.name], s)
				part := fmt.Sprintf("%s %.2fs (cpu %.2fs)", t.name, s.wall.Seconds(), s.cpu.Seconds())
				if t.vetLog {
					part += fmt.Sprintf(" [%d packages]", s.vetRuns)
				}
				parts = append(parts, part)
			}
			fmt.Fprintf(b.out, "   round %d, %s (load %s): %s\n", round+1, c.name, load, strings.Join(parts, ", "))
		}
	}

	fmt.Fprintf(b.out, "   medians over %d round(s), wall s / CPU s (user+sys), and tool/go vet:\n", b.rounds)
	for _, c := range []string{"full", "incremental"} {
		vet := summarize(samples[c+"/go vet"])
		line := fmt.Sprintf("go vet %.2f / %.2f", vet.wall.Seconds(), vet.cpu.Seconds())
		for _, name := range names {
			ss := samples[c+"/"+name]
			if len(ss) == 0 {
				continue
			}
			s := summarize(ss)
			line += fmt.Sprintf("; %s %.2f / %.2f (wall %.2f, cpu %.2f of go vet)", name, s.wall.Seconds(), s.cpu.Seconds(),
				s.wall.Seconds()/vet.wall.Seconds(), s.cpu.Seconds()/vet.cpu.Seconds())
		}
		fmt.Fprintf(b.out, "     %-11s %s\n", c+":", line)
	}
	for _, e := range errs {
		fmt.Fprintf(b.out, "   warning: %s\n", e)
	}
	fmt.Fprintln(b.out)
	return nil
}

// packageEditor returns edit, which appends a comment naming n to one
// Go file of every package under dir (go list ./...), and restore,
// which puts the files back as they were.
func packageEditor(dir string) (edit func(n int) error, restore func(), err error) {
	out, err := command(dir, nil, "go", "list", "-e", "-f", `{{.Dir}}{{range .GoFiles}}|{{.}}{{end}}{{range .CgoFiles}}|{{.}}{{end}}{{range .TestGoFiles}}|{{.}}{{end}}{{range .XTestGoFiles}}|{{.}}{{end}}`, "./...").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list in %s: %v", dir, err)
	}
	orig := map[string][]byte{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSpace(line), "|")
		if len(fields) < 2 {
			continue
		}
		file := filepath.Join(fields[0], fields[1])
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, err
		}
		orig[file] = data
	}
	edit = func(n int) error {
		for file, data := range orig {
			text := append(append([]byte{}, data...), fmt.Sprintf("\n// lockvet bench edit %d.%d\n", os.Getpid(), n)...)
			if err := os.WriteFile(file, text, 0o666); err != nil {
				return err
			}
		}
		return nil
	}
	restore = func() {
		for file, data := range orig {
			os.WriteFile(file, data, 0o666)
		}
	}
	return edit, restore, nil
}
