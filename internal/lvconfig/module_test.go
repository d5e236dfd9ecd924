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
	m.Set(nil, func() (bool, error) { return false, listErr })
	if err := m.Err(); err != nil {
		t.Fatalf("Err before Packages = %v, want nil (nothing asked yet)", err)
	}
	if _, complete := m.Packages(); complete {
		t.Fatal("Packages complete = true after a failed listing")
	}
	if err := m.Err(); !errors.Is(err, listErr) {
		t.Fatalf("Err = %v, want %v", err, listErr)
	}
	m.Set(nil, func() (bool, error) { return false, nil })
	if _, complete := m.Packages(); complete || m.Err() != nil {
		t.Fatalf("after Set again: complete %v, Err %v; want false, nil", complete, m.Err())
	}
	var nilModule *lvconfig.Module
	if nilModule.Err() != nil {
		t.Fatal("nil Module has an error")
	}
}
