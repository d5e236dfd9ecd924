#!/bin/sh
# tee.sh ARGS: run $CORPUS_BIN ARGS and keep its stdout and stderr as
# $CORPUS_OUT/GROUP.json and GROUP.err, GROUP named after the directory
# under $CORPUS_WORK (as corpuslib.py names the groups). Used by corpus.sh.
rel=$(pwd -P)
rel=${rel#"$(realpath "$CORPUS_WORK")"/}
root=${rel%%/*}
mdir=$(printf %s "${rel#"$root"}" | sed 's|^/||; s|/|_|g')
name=$root${mdir:+_$mdir}
"$CORPUS_BIN" "$@" >"$CORPUS_OUT/$name.json" 2>"$CORPUS_OUT/$name.err"
rc=$?
cat "$CORPUS_OUT/$name.json"
cat "$CORPUS_OUT/$name.err" >&2
exit "$rc"
