#!/bin/bash
# Runs the mutation queue over src/rulesets/ one file at a time (issue 28, point 5; see
# README.md), in a worktree of its own, at the lowest priority, until the queue is done or
# $OUT/STOP exists. Each file's outcome is kept in $OUT/<file>/mutants.out and one line per run
# in $OUT/progress.log, for runs.toml. Usage, from the worktree:
#   mutants/queue.sh make            # writes $OUT/queue.txt: every file not yet run, biggest first
#   mutants/queue.sh run             # works through it (resumable: finished files are skipped)
# A queue line is `<file> <mutants> [--re regex]`; add lines by hand to re-run a file's lines.
set -u
OUT=${OUT:-/tmp/m}
mkdir -p "$OUT"
cd "$(git rev-parse --show-toplevel)" || exit 1

suite_of() {
  case "$1" in
    src/rulesets/kit/*) echo kit ;;
    src/rulesets/mod.rs) echo platform ;;
    src/rulesets/naval_rjw/*) echo naval ;;
    src/rulesets/*/*) echo "$1" | cut -d/ -f3 ;;
  esac
}

case "${1:-}" in
make)
  # Files a recorded run has finished are left out: those of a run with `complete = true`
  # (every mutant of its files has been run once, by it or with the earlier runs its note
  # names). A run stopped early says `complete = false`, so its files stay in the queue
  # whatever its command looks like (a run without --re used to count as done even when
  # stopped). The field is read per [[run]] block, in whatever order the keys come.
  done_files=$(awk '
    function flush() { if (complete == "true") print files; files = ""; complete = "" }
    /^\[\[run\]\]/ { flush(); next }
    /^files *=/ { files = $0 }
    /^complete *=/ { complete = $0; sub(/^complete *= */, "", complete); sub(/ *(#.*)?$/, "", complete) }
    END { flush() }
  ' mutants/runs.toml | grep -o 'src/rulesets/[^"]*\.rs' | sort -u)
  cargo mutants --list -f 'src/rulesets/**' 2>/dev/null | cut -d: -f1 | sort | uniq -c |
    sort -rn | while read -r n f; do
      grep -qx "$f" <<<"$done_files" || echo "$f $n"
    done >"$OUT/queue.txt"
  wc -l "$OUT/queue.txt"
  ;;
run)
  while read -r f n re; do
    [ -e "$OUT/STOP" ] && { echo "$(date -u +%FT%TZ) STOP" >>"$OUT/progress.log"; exit 0; }
    slug=$(echo "$f" | sed 's#src/rulesets/##; s#/#__#g; s#\.rs$##')
    [ -n "$re" ] && slug="${slug}__re$(echo "$re" | md5sum | cut -c1-6)"
    [ -e "$OUT/$slug/done" ] && continue
    s=$(suite_of "$f")
    # nextest stops a caught mutant at its first failing test (~15 s a mutant on a quiet
    # 2-core machine, against ~25 s with cargo test running the whole suite).
    args=(--in-place --baseline=skip --timeout 180 --test-tool=nextest -f "$f"
      --cargo-arg=--test="$s" -o "$OUT/$slug")
    [ -n "$re" ] && args+=(--re "$re")
    # Stop the suite at its first failure at once: a slow test still running (the conformance
    # tests take ~100 s) would otherwise be waited for after every caught mutant.
    args+=(-- --max-fail=1:immediate)
    echo "$(date -u +%FT%TZ) start $f ($n) suite=$s commit=$(git rev-parse --short HEAD) re=$re" >>"$OUT/progress.log"
    nice -n 19 cargo mutants "${args[@]}" >"$OUT/$slug.log" 2>&1
    rc=$?
    o=$OUT/$slug/mutants.out
    echo "$(date -u +%FT%TZ) end $f rc=$rc caught=$(wc -l <"$o/caught.txt") missed=$(wc -l <"$o/missed.txt") unviable=$(wc -l <"$o/unviable.txt") timeout=$(wc -l <"$o/timeout.txt")" >>"$OUT/progress.log"
    git diff --quiet -- src || { echo "tree dirty after $f: restored" >>"$OUT/progress.log"; git checkout -- src; }
    touch "$OUT/$slug/done"
  done <"$OUT/queue.txt"
  ;;
*)
  echo "usage: mutants/queue.sh make|run   (OUT=$OUT)" >&2
  exit 2
  ;;
esac
