package acquireresult

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/redisops"
)

// polarity is what the bool result of an acquiring function answers: a
// fix that makes busy or failed return "not acquired" must know which
// value that is.
type polarity uint8

const (
	polUnknown  polarity = iota
	polAcquired          // true when it took the lock (Lock, TryLock, Acquire)
	polBusy              // true when another holds it (IsLocked, IsBusy)
)

// notAcquired is the bool that says "not acquired".
func (p polarity) notAcquired() string {
	if p == polBusy {
		return "true"
	}
	return "false"
}

// polarity reads what the bool result of the function around a answers,
// from what the function says of itself:
//
//   - its name: a question about the lock's state (IsLocked, Locked,
//     IsBusy) answers busy; a name that takes a lock (Lock, TryLock,
//     Acquire, Obtain, GetLock) answers acquired;
//   - a bool result named for it (ok, acquired, locked, busy, held);
//   - else a return of the constant true somewhere in its body: acquired
//     (a function that only ever says true on success).
//
// Names that disagree with each other, or none of the above: unknown.
func (c *checker) polarity(a *redisops.Op, sig *types.Signature, body *ast.BlockStmt) polarity {
	var votes []polarity
	if d, ok := a.Func.Node.(*ast.FuncDecl); ok {
		if p := namePolarity(d.Name.Name); p != polUnknown {
			votes = append(votes, p)
		}
	}
	for i := range sig.Results().Len() {
		r := sig.Results().At(i)
		if !isBool(r.Type()) {
			continue
		}
		switch r.Name() {
		case "ok", "acquired", "locked", "obtained", "got", "success", "succeeded":
			votes = append(votes, polAcquired)
		case "busy", "held", "isLocked", "exists":
			votes = append(votes, polBusy)
		}
	}
	if len(votes) > 0 {
		if slices.Contains(votes, polAcquired) && slices.Contains(votes, polBusy) {
			return polUnknown
		}
		return votes[0]
	}
	if body != nil && returnsTrue(c.pass.TypesInfo, body, sig.Results().Len()) {
		return polAcquired
	}
	return polUnknown
}

// namePolarity reads a function's name: a question about the lock's state
// answers busy, a verb that takes it answers acquired.
func namePolarity(name string) polarity {
	ws := lockname.Words(name)
	for _, w := range ws {
		switch w {
		case "locked", "busy", "held":
			return polBusy
		}
	}
	if role, _ := lockname.Split(name); role == lockname.Acquires {
		return polAcquired
	}
	return polUnknown
}

// returnsTrue reports whether body returns the constant true in the first
// of its n results (not counting function literals).
func returnsTrue(info *types.Info, body *ast.BlockStmt, n int) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == n {
				if tv, ok := info.Types[x.Results[0]]; ok && tv.Value != nil && tv.Value.String() == "true" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
