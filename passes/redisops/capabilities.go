package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// An adapter is one client library's knowledge: it turns calls of that
// client into ops. Only family and op are required. Everything else an
// adapter knows is a capability, an interface below that the Op methods
// look for; an adapter without one answers "no" (no outcome, no reply, no
// fix), so the checks stay silent or report without a fix for its ops.
//
// Each adapter file asserts the capabilities it implements
// (var _ releaser = goRedis{}), so that dropping or misspelling a method
// fails to compile instead of losing findings silently. Which adapter has
// which:
//
//	capability    used by                      goRedis redigo rueidis memcache lockLibs declared
//	scopeOpener   run: pipelines, Watch        x
//	flusher       run: Result.Flushes          x
//	connFlusher   run: Result.Flushes                  x
//	batchTyper    run: a handed batch          x
//	connArger     run: a handed batch                  x
//	scriptMaker   Op.ScriptSrc of s.Run(…)     x       x      x
//	ttlSetter     Op.WithTTL (LV101, LV102)    x       x      x       x
//	txLifter      Op.TxAlone (LV102)                   x
//	outcomer      Op.Outcome (LV105, …)        x       x      x       x        x        x
//	nilReplier    Op.IsBusyErr                 x       x      x       x
//	nilTester     Op.BusyTest                  x              x
//	readBother    Op.ReadBoth (LV105 fixes)    x       x      x
//	replier       Op.Reply (LV202)             x       x      x       x
//	valueReader   Op.ReplyValue (LV202)                               x
//	releaser      Op.Releases (LV201, LV202)   x       x      x
//	absentReader  Op.AbsenceTest (LV107)       x       x      x
//	claimer       Op.Claim (LV107 fixes)       x
//	scriptRunner  Op.Renew (LV203)             x       x      x
//	ctorArger     Op.Renew                             x
//	ttlArger      Op.Renew                             x      x
//	adviser       Op.Advice (messages)         x       x      x       x
//	pathFamilier  ClientPackage                x       x      x       x        x
type adapter interface {
	// family is the family name for ops from fn's package, or "" if the
	// adapter does not know fn.
	family(fn *types.Func) string
	// op builds the operation for a call to fn, or nil.
	op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op
}

// pathFamilier is implemented by adapters that know their operations by
// the package path alone: pathFamily(fn.Pkg().Path()) is family(fn).
type pathFamilier interface {
	pathFamily(path string) string
}

// scopeOpener is implemented by adapters whose pipelines and transactions
// are opened by a call (rdb.TxPipelined(ctx, fn), rdb.Pipeline()).
type scopeOpener interface {
	// opensScope classifies a call that opens a pipeline or transaction
	// (closure form: returns the index of the callback argument; value
	// form: returns -1). ok is false for other calls.
	opensScope(fn *types.Func) (kind ScopeKind, watch bool, fnArg int, ok bool)
}

// flusher is implemented by adapters whose pipelines are sent or emptied
// by a method call on the pipeline (Exec, Discard).
type flusher interface {
	flushes(fn *types.Func) bool
}

// connFlusher is implemented by adapters whose transactions and pipelines
// are commands on a connection (MULTI … EXEC, Send … Do) rather than
// pipeline objects: connFlush reports whether call sends or drops a batch
// whose replies it returns, and the batch's scope.
type connFlusher interface {
	connFlush(pass *analysis.Pass, call *ast.CallExpr) (Scope, bool)
}

// batchTyper is implemented by adapters whose batches are values of
// their own types (a go-redis Pipeliner): a function with a parameter of
// such a type queues what it calls on it in its caller's batch
// (Scope.Param).
type batchTyper interface {
	batchType(t types.Type) bool
}

// connArger is implemented by adapters whose batches are commands on a
// connection (connFlusher): argScope is the scope that a command queued
// on the connection arg, by a helper called at call, runs in: the
// transaction or pipeline open on arg there. ok is false when arg is not
// the client's connection.
type connArger interface {
	argScope(pass *analysis.Pass, call *ast.CallExpr, arg ast.Expr) (sc Scope, ok bool)
}

// scriptMaker is implemented by adapters whose script objects are made
// by a constructor (redis.NewScript(src)).
type scriptMaker interface {
	// scriptCtor reports whether fn is the client's script constructor
	// and returns the source argument of call.
	scriptCtor(call *ast.CallExpr, fn *types.Func) (src ast.Expr, ok bool)
}

// ttlSetter is implemented by adapters that can move a TTL into an
// acquire.
type ttlSetter interface {
	// withTTL returns edits that make the acquire o carry ttl (source
	// text in unit, the unit of the Expire it comes from), or false when
	// the client cannot express that unit there.
	withTTL(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, bool)
}

// txLifter is implemented by adapters that can take an acquire and its
// expire out of a transaction whose replies the code reads (LV102).
type txLifter interface {
	// txAlone returns the edits, or why not ("" when the shape is not
	// one the adapter rewrites at all).
	txAlone(pass *analysis.Pass, a, e *Op, ttl string) ([]analysis.TextEdit, string, bool)
}

// outcomer is implemented by adapters that know how their acquires report
// the outcome.
type outcomer interface {
	// outcome describes o's reply, or false when it cannot (not an
	// acquire, or a form whose reply means something else).
	outcome(info *types.Info, o *Op) (Outcome, bool)
}

// nilReplier is implemented by adapters whose clients have a nil-reply
// error value (what a held key comes back as for BusyErr acquires).
type nilReplier interface {
	// busyErr reports whether e is that value.
	busyErr(info *types.Info, o *Op, e ast.Expr) bool
}

// nilTester is implemented by adapters whose clients have a predicate
// that tests an error for the nil reply (rueidis.IsRedisNil).
type nilTester interface {
	// busyTest recognizes a call of it and returns the error argument.
	busyTest(info *types.Info, o *Op, call *ast.CallExpr) (ast.Expr, bool)
}

// readBother is implemented by adapters that can turn an error-only read
// of an acquire's reply into one that reads the value too.
type readBother interface {
	// readBoth returns edits that make an error-only read assign the
	// value to name as well, or false.
	readBoth(out Outcome, name string) ([]analysis.TextEdit, bool)
}

// replier is implemented by adapters that know how a command's reply is read.
type replier interface {
	reply(info *types.Info, o *Op) (ast.Expr, *types.Var)
}

// valueReader is implemented by adapters whose replies hold the value in
// a field.
type valueReader interface {
	replyValue(info *types.Info, o *Op, e ast.Expr) ast.Expr
}

// releaser is implemented by adapters that can rewrite a delete into an
// owner-checked release.
type releaser interface {
	releases(pass *analysis.Pass, o *Op, token string, opts ReleaseOptions) []Release
}

// scriptRunner is implemented by adapters that can write a script run in
// place of a command.
type scriptRunner interface {
	// renewable reports whether the Expire o sets the TTL whatever the
	// key's current one, as the compare-and-pexpire script does.
	renewable(o *Op) bool
	// scriptCtorFor returns the package whose constructor makes script
	// objects that can run on o's receiver, and the constructor's name.
	scriptCtorFor(pass *analysis.Pass, o *Op) (pkg *types.Package, ctor string, ok bool)
	// runScript returns the edits that replace the call o by a run of the
	// script object named v with keys and args (source text), or false
	// when o's receiver cannot run scripts or o's result is used in a way
	// the script's result cannot stand in for.
	runScript(pass *analysis.Pass, o *Op, v string, keys, args []string) ([]analysis.TextEdit, bool)
}

// ctorArger is implemented by script runners whose script constructor
// takes arguments before the source (redigo's key count): their constant
// source text for lockvet's canonical scripts, which take one key.
type ctorArger interface {
	scriptCtorArgs() []string
}

// ttlArger is implemented by script runners that write the TTL argument of
// a renewal themselves (rueidis passes script arguments as strings, and
// its EXPIRE takes an integer count of seconds): ttlArg returns the text
// of the TTL of the Expire o in milliseconds as a script argument, and any
// edits it needs (an import). Without it, Renew accepts only a
// time.Duration TTL and passes its Milliseconds().
type ttlArger interface {
	ttlArg(pass *analysis.Pass, o *Op) (text string, edits []analysis.TextEdit, ok bool)
}

// adviser is implemented by adapters whose clients need their own words
// for an Advice.
type adviser interface {
	// advice is the text for a on o, or "" for the default wording.
	advice(o *Op, a Advice) string
}
