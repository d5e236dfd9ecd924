package redisops

import (
	"go/ast"
	"go/types"
	"strings"
	"time"

	"github.com/lockvet/lockvet/passes/internal/constval"
)

// The Redis commands lockvet reads, each described once: what it does to
// its key (Kind), its arguments in order (key, value, TTL and its unit,
// script), whether it leaves the key without an expiry, and the option
// words that may follow. Every client that sends commands by name reads
// this table:
//
//   - by position, for commands sent as a name and a list of arguments
//     (redigo's c.Do("SET", key, value, "NX", "PX", ms), go-redis'
//     rdb.Do(ctx, "set", key, value, "nx", "px", ms)): positional;
//   - by builder step, for clients whose typed builders are generated from
//     the Redis command reference, one method per argument or option word
//     (rueidis' B().Set().Key(k).Value(v).Nx().PxMilliseconds(ms)): each
//     argument names its step.
//
// Adding a command lockvet should understand is one row here. Commands
// that open or end a transaction (MULTI, EXEC, WATCH, …) are not ops: the
// adapters follow them to find an op's Scope.
var commands = map[string]*command{
	"SET":        {kind: Write, args: []cmdArg{argKey, argValue}, opts: setOptions},
	"SETNX":      {kind: Acquire, args: []cmdArg{argKey, argValue}, noTTL: true},
	"SETEX":      {kind: Write, args: []cmdArg{argKey, argSeconds, argValue}},
	"PSETEX":     {kind: Write, args: []cmdArg{argKey, argMillis, argValue}},
	"GETSET":     {kind: GetSet, args: []cmdArg{argKey, argValue}, noTTL: true},
	"EXPIRE":     {kind: Expire, args: []cmdArg{argKey, argSeconds}, opts: expireOptions},
	"PEXPIRE":    {kind: Expire, args: []cmdArg{argKey, argMillis}, opts: expireOptions},
	"EXPIREAT":   {kind: Expire, args: []cmdArg{argKey, argUnixSeconds}, opts: expireOptions},
	"PEXPIREAT":  {kind: Expire, args: []cmdArg{argKey, argUnixMillis}, opts: expireOptions},
	"DEL":        {kind: Delete, args: []cmdArg{argKeys}},
	"UNLINK":     {kind: Delete, args: []cmdArg{argKeys}},
	"GET":        {kind: Get, args: []cmdArg{argKey}},
	"GETDEL":     {kind: Delete, args: []cmdArg{argKey}},
	"DELEX":      {kind: Delete, args: []cmdArg{argKey}, opts: delexOptions, strict: true},
	"EVAL":       {kind: Script, args: []cmdArg{argScript, argNumKeys}},
	"EVAL_RO":    {kind: Script, args: []cmdArg{argScript, argNumKeys}},
	"EVALSHA":    {kind: Script, args: []cmdArg{argSHA, argNumKeys}},
	"EVALSHA_RO": {kind: Script, args: []cmdArg{argSHA, argNumKeys}},
	// Counters; INCR may be a lock (incr.go), read first by each client.
	"INCR":         {kind: Counter, args: []cmdArg{argKey}},
	"INCRBY":       {kind: Counter, args: []cmdArg{argKey}},
	"INCRBYFLOAT":  {kind: Counter, args: []cmdArg{argKey}},
	"DECR":         {kind: Counter, args: []cmdArg{argKey}},
	"DECRBY":       {kind: Counter, args: []cmdArg{argKey}},
	"HINCRBY":      {kind: Counter, args: []cmdArg{argKey}},
	"HINCRBYFLOAT": {kind: Counter, args: []cmdArg{argKey}},
}

// command is one row of the table.
type command struct {
	kind Kind
	// args are the arguments before the options, in order.
	args []cmdArg
	// noTTL: the command leaves the key without an expiry (SETNX, GETSET).
	noTTL bool
	// opts are the option words that may follow args, upper case.
	opts map[string]option
	// strict: the command takes at most one option word; one that is not
	// in opts, or not a constant, leaves the command unknown (no op),
	// rather than only its options.
	strict bool
}

// cmdArg is one argument of a command: its role, and for a TTL its unit.
type cmdArg struct {
	role argRole
	unit Unit
	// step is the builder method that sets the argument.
	step string
}

type argRole uint8

const (
	roleKey     argRole = iota + 1
	roleKeys            // this and every argument after it is a key
	roleValue           // the value written (or compared)
	roleTTL             // a TTL in cmdArg.unit
	roleScript          // a Lua script's source
	roleSHA             // a Lua script's SHA1
	roleNumKeys         // how many keys follow; after them, the script's arguments
)

// The arguments, named as the Redis command reference names them.
var (
	argKey         = cmdArg{role: roleKey, step: "Key"}
	argKeys        = cmdArg{role: roleKeys, step: "Key"}
	argValue       = cmdArg{role: roleValue, step: "Value"}
	argSeconds     = cmdArg{role: roleTTL, unit: Seconds, step: "Seconds"}
	argMillis      = cmdArg{role: roleTTL, unit: Millis, step: "Milliseconds"}
	argUnixSeconds = cmdArg{role: roleTTL, unit: Time, step: "Timestamp"}
	argUnixMillis  = cmdArg{role: roleTTL, unit: Time, step: "MillisecondsTimestamp"}
	argScript      = cmdArg{role: roleScript, step: "Script"}
	argSHA         = cmdArg{role: roleSHA, step: "Sha1"}
	argNumKeys     = cmdArg{role: roleNumKeys, step: "Numkeys"}
)

// option is what an option word does to the command.
type option struct {
	effect optEffect
	// takesArg: the word is followed by an argument: a TTL in unit (ttl),
	// or the value or digest compared (cond, compare).
	takesArg bool
	unit     Unit
}

type optEffect uint8

const (
	optNone    optEffect = iota
	optNX                // only when the key is absent: the command acquires
	optGet               // the reply is the old value
	optXX                // only when the key exists
	optKeepTTL           // the key keeps the TTL it has (an absent key gets none)
	optTTL               // the argument is the new TTL
	optCond              // only when the value compares: not an acquire, and a DELEX lockvet does not model
	optCompare           // DELEX: delete only while the key holds the argument (an owner-checked release)
	optCondTTL           // EXPIRE: only depending on the current TTL (not a renewal the script reproduces)
)

var setOptions = map[string]option{
	"NX":      {effect: optNX},
	"XX":      {effect: optXX},
	"GET":     {effect: optGet},
	"KEEPTTL": {effect: optKeepTTL},
	"EX":      {effect: optTTL, takesArg: true, unit: Seconds},
	"PX":      {effect: optTTL, takesArg: true, unit: Millis},
	"EXAT":    {effect: optTTL, takesArg: true, unit: Time},
	"PXAT":    {effect: optTTL, takesArg: true, unit: Time},
	"IFEQ":    {effect: optCond, takesArg: true}, // Redis ≥ 8.4: compare-and-set
	"IFNE":    {effect: optCond, takesArg: true},
	"IFDEQ":   {effect: optCond, takesArg: true},
	"IFDNE":   {effect: optCond, takesArg: true},
}

var expireOptions = map[string]option{
	"NX": {effect: optCondTTL},
	"XX": {},
	"GT": {effect: optCondTTL},
	"LT": {effect: optCondTTL},
}

var delexOptions = map[string]option{
	"IFEQ":  {effect: optCompare, takesArg: true},
	"IFDEQ": {effect: optCompare, takesArg: true},
	"IFNE":  {effect: optCond, takesArg: true},
	"IFDNE": {effect: optCond, takesArg: true},
}

// cmdOpts are the option words a call sends, read.
type cmdOpts struct {
	nx, xx, get, keepTTL, cond, condTTL bool
	// unknown: a word that is not a constant, or not the command's.
	unknown bool
	ttl     ast.Expr // the TTL argument of the last TTL word
	word    ast.Expr // that word, where the call writes it (Op.TTLWord)
	unit    Unit
	trunc   time.Duration // what the client truncates a Duration TTL to
	// compare is the argument of a compare word (DELEX IFEQ); compared
	// is set when there is such a word.
	compare  ast.Expr
	compared bool
}

// apply records the word w (the command's option o), with its argument
// arg (nil when the call has none).
func (c *cmdOpts) apply(o option, arg ast.Expr) {
	switch o.effect {
	case optNX:
		c.nx = true
	case optGet:
		c.get = true
	case optXX:
		c.xx = true
	case optKeepTTL:
		c.keepTTL = true
	case optTTL:
		if arg == nil {
			c.unknown = true
			return
		}
		c.ttl, c.unit, c.trunc, c.word = arg, o.unit, 0, nil
	case optCond:
		c.cond = true
	case optCompare:
		c.compare, c.compared = arg, true
	case optCondTTL:
		c.condTTL = true
	}
}

// renewable: a relative expire (EXPIRE, PEXPIRE) with no condition on the
// current TTL sets the TTL whatever it was, as the compare-and-pexpire
// script does.
func (c *command) renewable(o cmdOpts) bool {
	return c.kind == Expire && len(c.args) == 2 && (c.args[1].unit == Seconds || c.args[1].unit == Millis) &&
		!o.condTTL && !o.unknown
}

// fill completes op (Call, Client and Method set) from the command c sent
// with its fixed arguments args (one per c.args entry, nil where the call
// lacks it; the key roles and numkeys are the caller's, who sets Keys,
// KeysSpread and Args), and options o. It returns nil when the call is not
// an op lockvet reads.
func (c *command) fill(info *types.Info, op *Op, args []ast.Expr, o cmdOpts) *Op {
	op.Kind = c.kind
	for i, a := range c.args {
		e := args[i]
		switch a.role {
		case roleKey:
			if e == nil {
				return nil
			}
			op.Keys = []ast.Expr{e}
		case roleValue:
			op.Value = e
		case roleTTL:
			op.TTL, op.TTLUnit = e, a.unit
		case roleScript:
			op.Script = e
			op.setScriptSrc(info, e)
		case roleSHA:
			op.Script = e
		}
	}
	if c.strict && (o.unknown || o.cond) {
		return nil
	}
	if o.compared {
		if o.compare == nil {
			return nil
		}
		op.Kind, op.Value = CompareDelete, o.compare
	}
	if op.Kind == Write && o.nx && !o.cond {
		op.Kind = Acquire
	}
	op.Overwrites = op.Kind == Write && !o.xx && !o.get && !o.cond && !o.unknown
	if o.ttl != nil {
		op.TTL, op.TTLUnit, op.TTLTrunc, op.TTLWord = o.ttl, o.unit, o.trunc, o.word
	}
	// No EX/PX/EXAT/PXAT (KEEPTTL on an absent key keeps no TTL either).
	op.NoTTL = c.noTTL || op.Kind == Acquire && !o.unknown && op.TTL == nil
	return op
}

// positional builds the op of the command name (upper case) sent with its
// arguments in order, args, the last one spread when spread is set (as
// redigo's c.Do("SET", key, value, "NX", "PX", ms) sends them). Options
// are read from constants, in any order and case. It returns nil for a
// command not in the table, and for arguments that do not fit it.
func positional(info *types.Info, op *Op, name string, args []ast.Expr, spread bool) *Op {
	c := commands[name]
	if c == nil {
		return nil
	}
	fixed := make([]ast.Expr, len(c.args))
	rest := args
	for i, a := range c.args {
		switch a.role {
		case roleKeys:
			if spread {
				op.KeysSpread = true
				if len(args) == i+1 {
					op.KeySlice = args[i] // Do("DEL", keys...)
				}
			} else {
				op.Keys = args[i:]
			}
			rest = nil
		case roleNumKeys:
			if spread || len(args) < i+1 {
				return nil
			}
			splitKeys(info, op, args[i], args[i+1:])
			rest = nil
		default:
			if spread || len(args) < i+1 {
				return nil
			}
			fixed[i], rest = args[i], args[i+1:]
		}
	}
	var o cmdOpts
	if c.opts != nil {
		o = positionalOpts(info, c, rest)
	}
	if c.fill(info, op, fixed, o) == nil || len(op.Keys) == 0 && !op.KeysSpread {
		return nil
	}
	return op
}

// positionalOpts reads the option words ws of the command c and their
// arguments.
func positionalOpts(info *types.Info, c *command, ws []ast.Expr) cmdOpts {
	var o cmdOpts
	for i := 0; i < len(ws); i++ {
		s := constval.String(info, ws[i])
		if s == nil || c.strict && i > 0 {
			o.unknown = true
			continue
		}
		opt, ok := c.opts[strings.ToUpper(*s)]
		if !ok {
			o.unknown = true
			continue
		}
		var arg ast.Expr
		if opt.takesArg && i+1 < len(ws) {
			arg = ws[i+1]
		}
		o.apply(opt, arg)
		if opt.effect == optTTL && arg != nil {
			o.word = ws[i]
		}
		if opt.takesArg && (arg != nil || opt.effect != optTTL) {
			i++
		}
	}
	return o
}

// splitKeys fills op's keys and arguments from a key count and what
// follows it; with a count that is not a constant, the keys are unknown.
func splitKeys(info *types.Info, op *Op, count ast.Expr, rest []ast.Expr) {
	n := constval.Int(info, count)
	if n == nil || *n < 0 || int(*n) > len(rest) {
		op.KeysSpread = true
		return
	}
	op.Keys, op.Args = rest[:*n], rest[*n:]
}
