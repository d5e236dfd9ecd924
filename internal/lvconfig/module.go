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
// host that loads every package of the module in one process (the lockvet
// command) fills it in after loading and before analysis; under hosts
// that see one package at a time (go vet, gopls, golangci-lint) the
// Config has none, and such fixes are offered only where no other package
// can call the function.
type Module struct {
	mu       sync.Mutex
	pkgs     []ModulePackage
	complete func() (bool, error)
	once     sync.Once
	done     bool
	err      error
}

// ModulePackage is one loaded, type-checked package of the module.
type ModulePackage struct {
	Fset  *token.FileSet
	Types *types.Package
	Info  *types.Info
	Files []*ast.File
}

// Set records the loaded packages; complete reports (when first asked)
// whether they are every package of the main module, test files
// included, or the error that kept it from knowing (the go command
// failed to list the module's packages).
func (m *Module) Set(pkgs []ModulePackage, complete func() (bool, error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pkgs, m.complete = pkgs, complete
	m.once, m.done, m.err = sync.Once{}, false, nil
}

// Packages returns the loaded packages, and whether they are the whole
// module: only then can a caller be ruled out. A nil Module has none.
func (m *Module) Packages() ([]ModulePackage, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.complete == nil {
		return m.pkgs, false
	}
	m.once.Do(func() { m.done, m.err = m.complete() })
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
