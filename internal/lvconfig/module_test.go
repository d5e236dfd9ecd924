package lvconfig_test

import (
	"errors"
	"testing"

	"github.com/lockvet/lockvet/internal/lvconfig"
)

// A failed listing of the module's packages is kept for the host to
// report, and the view is then not complete.
func TestModuleErr(t *testing.T) {
	var m lvconfig.Module
	listErr := errors.New("go list failed")
	m.Set(nil, func() ([]lvconfig.ModulePackage, bool, error) { return nil, false, listErr })
	if err := m.Err(); err != nil {
		t.Fatalf("Err before Packages = %v, want nil (nothing asked yet)", err)
	}
	if _, complete := m.Packages(); complete {
		t.Fatal("Packages complete = true after a failed listing")
	}
	if err := m.Err(); !errors.Is(err, listErr) {
		t.Fatalf("Err = %v, want %v", err, listErr)
	}
	m.Set(nil, func() ([]lvconfig.ModulePackage, bool, error) { return nil, false, nil })
	if _, complete := m.Packages(); complete || m.Err() != nil {
		t.Fatalf("after Set again: complete %v, Err %v; want false, nil", complete, m.Err())
	}
	var nilModule *lvconfig.Module
	if nilModule.Err() != nil {
		t.Fatal("nil Module has an error")
	}
}

// The rest of the module, loaded when first asked, is added to the
// packages; it is loaded once.
func TestModuleRest(t *testing.T) {
	var m lvconfig.Module
	calls := 0
	m.Set([]lvconfig.ModulePackage{{}}, func() ([]lvconfig.ModulePackage, bool, error) {
		calls++
		return []lvconfig.ModulePackage{{}, {}}, true, nil
	})
	if calls != 0 {
		t.Fatal("the rest loaded before it was asked")
	}
	for range 2 {
		pkgs, complete := m.Packages()
		if !complete || len(pkgs) != 3 {
			t.Fatalf("Packages = %d packages, complete %v; want 3, true", len(pkgs), complete)
		}
	}
	if calls != 1 {
		t.Fatalf("the rest loaded %d times, want once", calls)
	}
}
