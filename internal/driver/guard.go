package driver

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Guard makes a panic in one of lockvet's analyzers an error of that
// analysis instead of a crash of the whole run. The analyzers are fresh
// values from analyzer.Analyzers, so changing them in place is safe;
// analyzers from x/tools (shared package-level values) are left alone.
func Guard(analyzers []*analysis.Analyzer) {
	EachAnalyzer(analyzers, func(a *analysis.Analyzer) {
		fn := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer())
		if fn == nil || strings.HasPrefix(fn.Name(), "golang.org/x/tools/") {
			return
		}
		inner := a.Run
		a.Run = func(pass *analysis.Pass) (res any, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("internal error: %v (please report it with this stack)\n%s", r, debug.Stack())
				}
			}()
			return inner(pass)
		}
	})
}

// EachAnalyzer calls f once for each analyzer of as and of their
// requirements, requirements first.
func EachAnalyzer(as []*analysis.Analyzer, f func(*analysis.Analyzer)) {
	seen := map[*analysis.Analyzer]bool{}
	var visit func([]*analysis.Analyzer)
	visit = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if seen[a] {
				continue
			}
			seen[a] = true
			visit(a.Requires)
			f(a)
		}
	}
	visit(as)
}
