package main

import "testing"

// TestUnfetched: a module the machine cannot fetch fails a full sweep
// until a note explains it, and a -quick sweep only when no module at
// all could be fetched (then nothing was checked).
func TestUnfetched(t *testing.T) {
	fetched := func() *module { return &module{path: "example.com/ok", version: "v1.0.0", packages: 3, status: "0"} }
	unfetched := func() *module {
		return &module{path: "example.com/gone", version: "v1.0.0", unfetched: true, status: "not fetched",
			errors: []*lvError{{text: "sweep: go mod download example.com/gone@v1.0.0: 403 Forbidden"}}}
	}
	for _, tc := range []struct {
		name  string
		mods  []*module
		quick bool
		ok    bool
	}{
		{"quick, one of two unfetched", []*module{fetched(), unfetched()}, true, true},
		{"quick, all unfetched", []*module{unfetched()}, true, false},
		{"full, unfetched without a note", []*module{fetched(), unfetched()}, false, false},
		{"full, all fetched", []*module{fetched()}, false, true},
	} {
		s := summarize(tc.mods, tc.quick)
		if s.ok() != tc.ok {
			t.Errorf("%s: ok() = %v, want %v (%s)", tc.name, s.ok(), tc.ok, s)
		}
	}
}
