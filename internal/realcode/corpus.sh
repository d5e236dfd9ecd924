#!/bin/sh
# corpus.sh BIN OUTDIR: score BIN on the labelled corpus and list every finding.
# Writes OUTDIR/score.txt (score.py -v), OUTDIR/GROUP.json (BIN -json of each
# checkout), OUTDIR/findings.tsv and OUTDIR/summary.txt. See README.md.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 2; }
here=$(dirname "$(realpath "$0")")
corpus=${LOCKVET_CORPUS:-/work/shared/corpus}
export LOCKVET_MIRRORS="${LOCKVET_MIRRORS:-/work/.mirror}"
export CORPUS_WORK="${CORPUS_WORK:-$HOME/.cache/lockvet-corpus}"
mkdir -p "$2" "$CORPUS_WORK"
export CORPUS_BIN CORPUS_OUT
CORPUS_BIN=$(realpath "$1") CORPUS_OUT=$(realpath "$2")

# score.py runs BIN -json once per (repo, commit, module_dir) over that
# group's packages, in its checkout CORPUS_WORK/OWNER+NAME@COMMIT12/MODULE_DIR.
# It is given tee.sh in BIN's place, which keeps each output as
# OUTDIR/GROUP.json: the findings listed are the ones scored, from one run.
# score.py exits 1 below its recall/precision bar; the figures are the output.
python3 "$corpus/score.py" "$here/tee.sh" -v >"$CORPUS_OUT/score.txt" 2>&1 || true
python3 "$here/corpuslib.py" findings "$corpus/cases.tsv" "$CORPUS_OUT" >"$CORPUS_OUT/findings.tsv" 2>"$CORPUS_OUT/summary.txt"
tail -n 1 "$CORPUS_OUT/score.txt"
cat "$CORPUS_OUT/summary.txt"
