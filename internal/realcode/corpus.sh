#!/bin/sh
# corpus.sh BIN OUTDIR: score BIN on the labelled corpus and list every finding.
# Writes OUTDIR/score.txt (score.py -v), OUTDIR/GROUP.json (BIN -json of each
# checkout), OUTDIR/findings.tsv and OUTDIR/summary.txt. See README.md.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 2; }
bin=$(realpath "$1")
out=$2
here=$(dirname "$(realpath "$0")")
corpus=${LOCKVET_CORPUS:-/work/shared/corpus}
export LOCKVET_MIRRORS="${LOCKVET_MIRRORS:-/work/.mirror}"
export CORPUS_WORK="${CORPUS_WORK:-$HOME/.cache/lockvet-corpus}"
mkdir -p "$out"

# score.py exits 1 below its recall/precision bar; the figures are the output.
python3 "$corpus/score.py" "$bin" -v >"$out/score.txt" 2>&1 || true

# One run per (repo, commit, module_dir) over its packages, as score.py
# does, in the checkout score.py made. Default -test (true), as score.py.
python3 "$here/corpuslib.py" groups "$corpus/cases.tsv" | while IFS="$(printf '\t')" read -r group dir pkgs; do
	# shellcheck disable=SC2086 # $pkgs is a list of package patterns
	(cd "$CORPUS_WORK/$dir" && GOFLAGS=-mod=mod GOTOOLCHAIN=local "$bin" -json $pkgs) \
		>"$out/$group.json" 2>"$out/$group.err" || echo "$group: $bin exit $?" >&2
done
python3 "$here/corpuslib.py" findings "$corpus/cases.tsv" "$out" >"$out/findings.tsv" 2>"$out/summary.txt"
tail -n 1 "$out/score.txt"
cat "$out/summary.txt"
