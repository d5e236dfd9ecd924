package driver

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/internal/lvconfig"
)

// SetModule records the loaded root packages in m, the analyzers' view
// of the module. They are the whole module when the patterns named
// every package of the main module (asked of the go command only when a
// fix needs to know) and test files were loaded: only then can a fix
// that changes an exported function's signature find every call.
func (l *Loaded) SetModule(m *lvconfig.Module, dir string, tests bool) {
	var pkgs []lvconfig.ModulePackage
	loaded := map[string]bool{}
	for _, p := range l.Roots {
		if p.Types == nil || p.TypesInfo == nil || p.IllTyped {
			continue
		}
		pkgs = append(pkgs, lvconfig.ModulePackage{Fset: p.Fset, Types: p.Types, Info: p.TypesInfo, Files: p.Syntax})
		loaded[p.PkgPath] = true
	}
	var modDir string
	for _, p := range l.Roots {
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" {
			modDir = p.Module.Dir
			break
		}
	}
	m.Set(pkgs, func() (bool, error) {
		if !tests || modDir == "" {
			return false, nil
		}
		all, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: modDir}, "./...")
		if err != nil {
			return false, fmt.Errorf("listing the packages of %s: %v", modDir, err)
		}
		if len(all) == 0 {
			return false, nil
		}
		return !slices.ContainsFunc(all, func(p *packages.Package) bool { return !loaded[p.PkgPath] }), nil
	})
}
