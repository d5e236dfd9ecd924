// Package keyid owns key identity: whether two operations touch the same
// Redis key. Each operation's key is read once into a Form (Scope.Of), a
// sequence of parts: constant text, a parameter, the receiver's fields,
// a package-level variable, a local (with its definition), a call of a
// key function or a formatting function, an element of a ranged slice.
// The rules that read expressions into parts are in norm.go, one
// function each; every identity question compares forms: Same (in one
// function), SameShape (across functions), and a helper's Template bound
// to a call's arguments (Bind).
//
// It is deliberately narrow, so that checks stay silent when unsure:
// what no rule reads is Unknown, and the same as nothing.
//
// A new way of writing a key (a conversion, a helper of the standard
// library, a field of a struct literal) is one rule in norm.go, added to
// rules, and its cases in form_test.go: what every check asks then
// knows it.
package keyid
