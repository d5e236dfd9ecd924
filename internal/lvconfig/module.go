package lvconfig

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"
)

// Module is a host's view of the whole main module, for the fixes that
// change a function's signature and so must edit its callers in other
// packages too (a Lock that returns a token, an Unlock that takes it). A
// host that loads packages of the module in one process (the lockvet
// command) fills it in after loading and before analysis, with the
// packages it loaded and a way to load the rest when a fix first asks;
// under hosts that see one package at a time (go vet, gopls,
// golangci-lint) the Config has none, and such fixes are offered only
// where no other package can call the function.
type Module struct {
	mu       sync.Mutex
	pkgs     []ModulePackage
	complete func() ([]ModulePackage, bool, error)
	once     sync.Once
	done     bool
	err      error
	noTests  bool
	// analyzed is what the analysis made of each package of the
	// module so far (SetAnalyzed), by the package as importers see it.
	analyzed map[*types.Package]any
}

// ModulePackage is one loaded, type-checked package of the module.
type ModulePackage struct {
	Fset  *token.FileSet
	Types *types.Package
	Info  *types.Info
	Files []*ast.File
	// Broken: the package does not type-check (its test files, as a
	// rule); its Info is not to be trusted, only its syntax.
	Broken bool
	// Excluded: files of the package that a build constraint leaves out
	// of this build (another GOOS, a tag such as integration); only
	// their syntax is here, and Broken is set too. A fix must not change
	// what they call: a build with that tag would no longer compile.
	Excluded bool
}

// Set records the loaded packages. complete, called when a fix first
// asks, returns the module's packages (or their test files) that pkgs
// lack, loaded into pkgs' FileSet, and whether pkgs and those are then
// every package of the main module, test files included; or the error
// that kept it from knowing (the go command failed to list or load the
// module's packages).
func (m *Module) Set(pkgs []ModulePackage, complete func() ([]ModulePackage, bool, error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pkgs, m.complete = pkgs, complete
	m.once, m.done, m.err = sync.Once{}, false, nil
}

// LeaveTestsOut records that the host loaded the packages without their
// test files (lockvet -test=false): a package's own tests may then call
// even its unexported functions, and Packages loads them when asked.
func (m *Module) LeaveTestsOut(out bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.noTests = out
}

// TestsLeftOut reports what LeaveTestsOut recorded; false for a nil
// Module.
func (m *Module) TestsLeftOut() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.noTests
}

// Packages returns the loaded packages, and whether they are the whole
// module: only then can a caller be ruled out. The first call loads the
// rest of the module, when the host can. A package may appear twice:
// loaded without its test files, then with only those (the same import
// path, other objects). A nil Module has none.
func (m *Module) Packages() ([]ModulePackage, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.complete == nil {
		return m.pkgs, false
	}
	m.once.Do(func() {
		var more []ModulePackage
		more, m.done, m.err = m.complete()
		if m.done {
			m.pkgs = append(m.pkgs[:len(m.pkgs):len(m.pkgs)], more...)
		}
	})
	return m.pkgs, m.done
}

// Err is the error that kept Packages from knowing whether the loaded
// packages are the whole module, once it was asked; nil otherwise. A
// host reports it: the fixes that needed every caller were withheld
// for it, not for the code.
func (m *Module) Err() error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// ModuleView is c's Module, or nil (also for a nil Config).
func (c *Config) ModuleView() *Module {
	if c == nil {
		return nil
	}
	return c.Module
}

// SetAnalyzed records v, what the analysis made of pkg (redisops: its
// pass and result), so that a fix built for a finding in a package that
// imports pkg can be the one built for pkg's own finding (a helper
// pair's token fix, offered at the helpers' callers too). Nothing is
// recorded for a nil Module.
func (m *Module) SetAnalyzed(pkg *types.Package, v any) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.analyzed == nil {
		m.analyzed = map[*types.Package]any{}
	}
	m.analyzed[pkg] = v
}

// Analyzed is what SetAnalyzed recorded for pkg, or nil.
func (m *Module) Analyzed(pkg *types.Package) any {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.analyzed[pkg]
}
