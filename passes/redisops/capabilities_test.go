package redisops

import (
	"go/token"
	"go/types"
	"os"
	"strings"
	"testing"
)

// TestCapabilityTable keeps the table in capabilities.go's comment true:
// each adapter has exactly the capabilities the table marks.
func TestCapabilityTable(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("capabilities.go")
	if err != nil {
		t.Fatal(err)
	}
	adapters := map[string]adapter{"goRedis": goRedis{}, "redigo": redigo{}, "rueidis": rueidisNative, "memcache": memcache{}, "lockLibs": lockLibs{}, "declared": (*declared)(nil)}
	has := map[string]func(adapter) bool{
		"scopeOpener":  func(a adapter) bool { _, ok := a.(scopeOpener); return ok },
		"flusher":      func(a adapter) bool { _, ok := a.(flusher); return ok },
		"connFlusher":  func(a adapter) bool { _, ok := a.(connFlusher); return ok },
		"batchTyper":   func(a adapter) bool { _, ok := a.(batchTyper); return ok },
		"connArger":    func(a adapter) bool { _, ok := a.(connArger); return ok },
		"scriptMaker":  func(a adapter) bool { _, ok := a.(scriptMaker); return ok },
		"ttlSetter":    func(a adapter) bool { _, ok := a.(ttlSetter); return ok },
		"txLifter":     func(a adapter) bool { _, ok := a.(txLifter); return ok },
		"outcomer":     func(a adapter) bool { _, ok := a.(outcomer); return ok },
		"nilReplier":   func(a adapter) bool { _, ok := a.(nilReplier); return ok },
		"nilTester":    func(a adapter) bool { _, ok := a.(nilTester); return ok },
		"readBother":   func(a adapter) bool { _, ok := a.(readBother); return ok },
		"replier":      func(a adapter) bool { _, ok := a.(replier); return ok },
		"valueReader":  func(a adapter) bool { _, ok := a.(valueReader); return ok },
		"releaser":     func(a adapter) bool { _, ok := a.(releaser); return ok },
		"scriptRunner": func(a adapter) bool { _, ok := a.(scriptRunner); return ok },
		"ctorArger":    func(a adapter) bool { _, ok := a.(ctorArger); return ok },
		"ttlArger":     func(a adapter) bool { _, ok := a.(ttlArger); return ok },
		"adviser":      func(a adapter) bool { _, ok := a.(adviser); return ok },
		"pathFamilier": func(a adapter) bool { _, ok := a.(pathFamilier); return ok },
	}
	var header []int // column of each adapter name
	var names []string
	rows := 0
	for _, line := range strings.Split(string(src), "\n") {
		text, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		f := strings.Fields(text)
		line := []rune(text) // columns count characters
		if len(f) > 0 && f[0] == "capability" {
			for name := range adapters {
				header = append(header, len([]rune(text[:strings.Index(text, name)])))
				names = append(names, name)
			}
			continue
		}
		if len(f) == 0 || has[f[0]] == nil || header == nil {
			continue
		}
		rows++
		for i, name := range names {
			marked := header[i] < len(line) && line[header[i]] == 'x'
			if got := has[f[0]](adapters[name]); got != marked {
				t.Errorf("capabilities.go table: %s %s: marked %v, implemented %v", f[0], name, marked, got)
			}
		}
	}
	if rows != len(has) {
		t.Errorf("capabilities.go table has %d capability rows, want %d", rows, len(has))
	}
}

// TestClientPackage: ClientPackage answers for every client and lock
// library package as the adapters' family does, and allocates nothing
// on the strings of export data it is called on (cmd/lockvet, vetdeps.go).
func TestClientPackage(t *testing.T) {
	// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
	var paths []string
	for _, m := range []map[string]string{goRedisPaths, redigoPaths, lockLibPaths} {
		for p := range m {
			paths = append(paths, p)
		}
	}
	paths = append(paths, memcachePath, rueidisNative.path, rueidisNative.cmds, valkeyNative.path,
		"fmt", "github.com/redis", "github.com/redis/go-redis/v9/internal/pool", "Context", "")
	for _, path := range paths {
		fn := types.NewFunc(token.NoPos, types.NewPackage(path, "p"), "F", types.NewSignatureType(nil, nil, nil, nil, nil, false))
		want := false
		for _, a := range adapters {
			want = want || a.family(fn) != ""
		}
		if got := ClientPackage(path); got != want {
			t.Errorf("ClientPackage(%q) = %v; an adapter's family says %v", path, got, want)
		}
	}
	if !ClientPackage("github.com/redis/go-redis/v9") || ClientPackage("fmt") {
		t.Errorf("ClientPackage: go-redis v9 %v, fmt %v; want true, false", ClientPackage("github.com/redis/go-redis/v9"), ClientPackage("fmt"))
	}
	if n := testing.AllocsPerRun(100, func() { ClientPackage("Context") }); n != 0 {
		t.Errorf("ClientPackage allocates %v times per call; want 0", n)
	}
}
