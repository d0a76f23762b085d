#!/usr/bin/env bash
# Run every example of README.md, docs/*.md and problems/README.md with the
# release binary and compare its output with the documented one.
#
#   scripts/check_docs.sh            check; exit 1 and print a diff on any difference
#   scripts/check_docs.sh --update   also rewrite, in place, the documented output
#                                    of every example that differs
#   scripts/check_docs.sh FILE.md    only these files
#
# What is an example (fenced code blocks):
#   - a block with lines starting with '$ ': each such line is a command,
#     run with bash from a scratch copy of the repository (problems/,
#     tests/data/, docs/, scripts/) with `tsume` on PATH; the lines after
#     it, up to the next '$ ' line, are its output (stdout and stderr
#     together; blank lines at the end are a separator, not output). The
#     commands of one block share one shell, so `echo $?` works;
#   - a block marked `<!-- check-docs: usi -->` on the line before it: a
#     USI session, '> ' lines sent to `tsume usi`, '< ' lines its replies
#     (as many replies are read as the block shows after each command);
#   - a ```rust block: compiled against the release library and run (its
#     assertions are the check). Without `fn main`, the block becomes the
#     body of `fn main() -> Result<(), Box<dyn std::error::Error>>`.
# A ```sh block without '$ ' lines (commands without their output) must be
# marked `<!-- check-docs: skip: REASON -->`, and so must any example that
# cannot run here (too slow, or needing a cluster or a browser); the
# reasons are printed. Other blocks (synopses, figures, file contents) are
# text.
#
# Matching: '...' alone on an expected line stands for any number of lines;
# '...' inside a line for any text. Timing figures are normalised on both
# sides before comparing: `time:`/`time` values, `nps`, JSON `"seconds"`,
# the node counts of `solve` (JSON `"nodes"`, text `nodes:`: a search on
# several threads counts a different number each run),
# the `seconds` column of batch rows, the batch summary's rate, times and
# job count (the number of cores), its list of the slowest problems (their
# order follows their times), and in USI sessions `info ... time`, `nps`,
# the node counts of progress lines, and the depth, seldepth, node count
# and hashfull of searches cut by `stop` or a time limit. Everything else
# must be equal. `--update` cannot rewrite a block that uses '...': it
# prints the diff for a manual edit.
#
# The binary is built once (`cargo build --release --locked`). Slow or
# timing-bound examples are marked skip with the reason, so a run takes
# well under a minute after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

update=0
files=()
for a in "$@"; do
    case $a in
        --update) update=1 ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *) files+=("$a") ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then
    files=(README.md docs/*.md problems/README.md)
fi

cargo build --release --locked --quiet
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET/release/tsume

W=$(mktemp -d "${TMPDIR:-/tmp}/tsume-check-docs.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/bin" "$W/blocks" "$W/updates"
ln -s "$BIN" "$W/bin/tsume"
export PATH="$W/bin:$PATH"

# A scratch copy of what the examples read (and may write).
REPO=$W/repo
mkdir -p "$REPO/tests"
cp -r problems docs scripts "$REPO/"
cp -r tests/data "$REPO/tests/"

# Normalise timing figures (stdin to stdout); see the header.
normalise() {
    sed -e 's/(main search \([0-9]*\) nodes, [0-9.]*s)/(main search \1 nodes, Ts)/' \
        -e 's/time: [0-9.]*s/time: T/g' \
        -e 's/nps: [0-9]*/nps: N/g' \
        -e 's/  time [0-9.]*s  nps [0-9]*/  time T  nps N/' \
        -e 's/"seconds":[0-9.e+-]*/"seconds":T/g' \
        -e 's/"nodes":[0-9]*/"nodes":N/g' \
        -e 's/^nodes: [0-9]*  time/nodes: N  time/' \
        -e 's/^batch: \([0-9]*\) problems in [0-9.]* s ([0-9.]*\/s), [0-9]* jobs ×/batch: \1 problems in T s (R\/s), J jobs ×/' \
        -e 's/^  time: total [0-9.]* s, median [0-9.]* s per problem$/  time: total T s, median T s per problem/' \
        -e '/^ *[0-9][0-9]*\.[0-9][0-9]* s  [^ ]/d' \
        -e 's/info time [0-9]* nodes \([0-9]*\) nps [0-9]*/info time T nodes \1 nps R/' \
        -e 's/^\(< info depth [0-9]* seldepth [0-9]*\) time [0-9]* nodes \([0-9]*\) nps [0-9]*/\1 time T nodes \2 nps R/' \
        -e '/info time T nodes [0-9]* nps R$/s/nodes [0-9]*/nodes N/' \
        -e '/string no result: /s/depth [0-9]* seldepth [0-9]* time T nodes [0-9]* nps R hashfull [0-9]*/depth D seldepth S time T nodes N nps R hashfull H/' \
        -e '/string no result: /s/nodes [0-9]*/nodes N/' |
        awk -F, -v OFS=, '/^[0-9]+,/ && NF >= 15 { $15 = "T" } { print }'
}

# Whether the actual lines (file $2) match the expected ones (file $1),
# with '...' elisions; both already normalised.
matches() {
    awk '
    function esc(s,   out, i, c) {
        out = ""
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (index("\\^$.[]|()*+?{}/", c)) out = out "\\" c
            else out = out c
        }
        return out
    }
    function line_ok(e, a,   parts, n, i, re) {
        if (index(e, "...") == 0) return e == a
        n = split(e, parts, /\.\.\./)
        re = "^" esc(parts[1])
        for (i = 2; i <= n; i++) re = re ".*" esc(parts[i])
        return a ~ (re "$")
    }
    function m(i, j,   k) {
        if (i > ne) return j > na
        if (E[i] == "...") {
            for (k = j; k <= na + 1; k++) if (m(i + 1, k)) return 1
            return 0
        }
        if (j <= na && line_ok(E[i], A[j])) return m(i + 1, j + 1)
        return 0
    }
    FNR == NR { E[++ne] = $0; next }
    { A[++na] = $0 }
    END { exit m(1, 1) ? 0 : 1 }
    ' "$1" "$2"
}

# Split every file's fenced blocks into $W/blocks/NNN.* (see the header).
extract() {
    local file=$1 id=$2
    awk -v file="$file" -v dir="$W/blocks" -v first="$id" '
    function out(name) { return sprintf("%s/%04d.%s", dir, b, name) }
    function flush_step() {
        if (s == 0) return
        # Expected output: up to the last non-blank line.
        last = lastnb
        printf "%d %d %d\n", cmdline, cmdline + 1, (last ? last : cmdline) > out(sprintf("s%03d.range", s))
        close(out(sprintf("s%03d.range", s)))
        close(out(sprintf("s%03d.exp", s)))
        close(out(sprintf("s%03d.cmd", s)))
    }
    BEGIN { b = first - 1; inblock = 0 }
    {
        if (!inblock && /^```/) {
            inblock = 1; b++; lang = substr($0, 4); kind = ""; s = 0; lastnb = 0; dollar = 0
            marker = prev
            start = FNR
            printf "" > out("body")
            next
        }
        if (inblock && /^```[ \t]*$/) {
            inblock = 0
            flush_step()
            close(out("body"))
            reason = ""
            if (marker ~ /^<!-- check-docs: skip: /) {
                reason = marker; sub(/^<!-- check-docs: skip: /, "", reason); sub(/ *-->.*$/, "", reason)
                kind = "skip"
            } else if (marker ~ /^<!-- check-docs: usi/) {
                kind = "usi"
            } else if (lang == "rust") {
                kind = "rust"
            } else if (dollar) {
                kind = "example"
            } else if (lang ~ /^(sh|bash|shell|console)$/) {
                kind = "unmarked"
            } else {
                kind = "text"
            }
            printf "%s\t%s\t%d\t%s\n", kind, file, start, reason > out("kind")
            close(out("kind"))
            dollar = 0
            prev = $0
            next
        }
        if (inblock) {
            print > out("body")
            if (/^\$ /) {
                flush_step()
                dollar = 1; s++; cmdline = FNR; lastnb = 0
                print substr($0, 3) > out(sprintf("s%03d.cmd", s))
                printf "" > out(sprintf("s%03d.exp", s))
            } else if (s > 0) {
                print > out(sprintf("s%03d.exp", s))
                if ($0 !~ /^[ \t]*$/) lastnb = FNR
            }
            next
        }
        prev = $0
    }
    END { print b > (dir "/last") }
    ' "$file"
}

failed=0
checked=0
skipped=()
manual=()

# Record a replacement of lines FIRST..LAST of FILE by the file NEW.
record_update() {
    printf '%s\t%s\t%s\n' "$2" "$3" "$4" >>"$W/updates/$(printf '%s' "$1" | tr '/' '_')"
    printf '%s\n' "$1" >>"$W/updates.files"
}

report_diff() {
    local where=$1 exp=$2 act=$3
    echo "--- $where: documented output differs:"
    diff -u --label documented --label actual "$exp" "$act" | sed 's/^/    /' || true
}

run_example() {
    local base=$1 file=$2 start=$3
    local script=$W/run.sh steps=()
    for c in "$base".s*.cmd; do steps+=("${c%.cmd}"); done
    {
        echo 'exec 2>&1'
        for st in "${steps[@]}"; do
            cat "$st.cmd"
            # shellcheck disable=SC2016
            printf '__s=$?; printf "\\037check-docs-step\\n"; (exit $__s)\n'
        done
    } >"$script"
    local actual=$W/actual.txt
    (cd "$REPO" && timeout 600 bash "$script") >"$actual" 2>&1 || true
    # Split the output at the markers (a marker may follow a last line
    # without its newline).
    awk -v dir="$W" '
        BEGIN { n = 1; f = sprintf("%s/act%03d", dir, n); printf "" > f }
        {
            i = index($0, "\037check-docs-step")
            if (i) {
                if (i > 1) print substr($0, 1, i - 1) > f
                close(f); n++; f = sprintf("%s/act%03d", dir, n); printf "" > f
            } else print > f
        }' "$actual"
    local k=0
    for st in "${steps[@]}"; do
        k=$((k + 1))
        local act cmdline first last new
        act=$W/$(printf 'act%03d' "$k")
        [ -f "$act" ] || : >"$act"
        read -r cmdline first last <"$st.range"
        # The documented output: without the trailing separator lines.
        head -n $((last - first + 1)) "$st.exp" >"$W/exp.txt"
        normalise <"$W/exp.txt" >"$W/exp.norm"
        normalise <"$act" >"$W/act.norm"
        checked=$((checked + 1))
        if ! matches "$W/exp.norm" "$W/act.norm"; then
            failed=1
            report_diff "$file:$cmdline: \$ $(cat "$st.cmd")" "$W/exp.norm" "$W/act.norm"
            if grep -q '\.\.\.' "$W/exp.txt"; then
                manual+=("$file:$cmdline")
            else
                new=$W/updates/$(basename "$st").new
                cp "$act" "$new"
                record_update "$file" "$first" "$last" "$new"
            fi
        fi
    done
}

run_usi() {
    local base=$1 file=$2 start=$3
    local body=$base.body actual=$W/usi.txt
    : >"$actual"
    coproc USI { cd "$REPO" && exec tsume usi 2>&1; }
    local pid=$USI_PID uin uout
    exec {uin}>&"${USI[1]}" {uout}<&"${USI[0]}"
    local lines=() i=0 n j k r reply
    mapfile -t lines <"$body"
    n=${#lines[@]}
    while [ "$i" -lt "$n" ]; do
        if [[ ${lines[i]} == "> "* ]]; then
            printf '%s\n' "${lines[i]}" >>"$actual"
            printf '%s\n' "${lines[i]#> }" >&"$uin"
            j=$((i + 1))
            k=0
            while [ "$j" -lt "$n" ] && [[ ${lines[j]} == "< "* ]]; do
                k=$((k + 1))
                j=$((j + 1))
            done
            for ((r = 0; r < k; r++)); do
                if IFS= read -r -t 30 reply <&"$uout"; then
                    printf '< %s\n' "$reply" >>"$actual"
                else
                    echo "(no reply within 30 s)" >>"$actual"
                    break
                fi
            done
            i=$j
        else
            printf '%s\n' "${lines[i]}" >>"$actual"
            i=$((i + 1))
        fi
    done
    # Anything after the last command (`quit` ends the engine).
    while IFS= read -r -t 10 reply <&"$uout"; do
        printf '< %s\n' "$reply" >>"$actual"
    done
    exec {uin}>&- {uout}<&-
    wait "$pid" 2>/dev/null || true
    normalise <"$body" >"$W/exp.norm"
    normalise <"$actual" >"$W/act.norm"
    checked=$((checked + 1))
    if ! matches "$W/exp.norm" "$W/act.norm"; then
        failed=1
        report_diff "$file:$start: USI session" "$W/exp.norm" "$W/act.norm"
        local new
        new=$W/updates/$(basename "$base").new
        cp "$actual" "$new"
        record_update "$file" $((start + 1)) $((start + $(wc -l <"$body"))) "$new"
    fi
}

run_rust() {
    local base=$1 file=$2 start=$3
    local src=$W/doc_example.rs
    if grep -q 'fn main' "$base.body"; then
        cp "$base.body" "$src"
    else
        {
            echo 'fn main() -> Result<(), Box<dyn std::error::Error>> {'
            cat "$base.body"
            echo 'Ok(())'
            echo '}'
        } >"$src"
    fi
    checked=$((checked + 1))
    if ! rustc --edition 2021 --crate-type bin -o "$W/doc_example" "$src" \
        --extern tsume="$TARGET/release/libtsume.rlib" \
        -L dependency="$TARGET/release/deps" >"$W/rustc.txt" 2>&1; then
        failed=1
        echo "--- $file:$start: the rust example does not compile:"
        sed 's/^/    /' "$W/rustc.txt"
        return
    fi
    if ! (cd "$REPO" && timeout 300 "$W/doc_example") >"$W/rust.out" 2>&1; then
        failed=1
        echo "--- $file:$start: the rust example fails:"
        sed 's/^/    /' "$W/rust.out"
    fi
}

id=1
for f in "${files[@]}"; do
    rm -f "$W"/blocks/*
    extract "$f" "$id"
    last=$(cat "$W/blocks/last")
    for ((blk = id; blk <= last; blk++)); do
        base=$(printf '%s/blocks/%04d' "$W" "$blk")
        IFS=$'\t' read -r kind file start reason <"$base.kind"
        case $kind in
            example) run_example "$base" "$file" "$start" ;;
            usi) run_usi "$base" "$file" "$start" ;;
            rust) run_rust "$base" "$file" "$start" ;;
            skip) skipped+=("$file:$start: $reason") ;;
            unmarked)
                failed=1
                echo "--- $file:$start: a command block neither run ('\$ ' lines) nor marked <!-- check-docs: skip: REASON -->"
                ;;
            text) ;;
        esac
    done
    id=$((last + 1))
done

if [ "$update" = 1 ] && [ -f "$W/updates.files" ]; then
    sort -u "$W/updates.files" | while read -r f; do
        list=$W/updates/$(printf '%s' "$f" | tr '/' '_')
        # From the bottom up, so that earlier line numbers stay valid.
        sort -t$'\t' -k1,1nr "$list" | while IFS=$'\t' read -r first last new; do
            {
                head -n $((first - 1)) "$f"
                cat "$new"
                tail -n +$((last + 1)) "$f"
            } >"$W/rewrite.md"
            cat "$W/rewrite.md" >"$f"
        done
        echo "updated $f"
    done
fi

for s in "${skipped[@]}"; do
    echo "skipped $s"
done
for m in "${manual[@]}"; do
    echo "to edit by hand (the block uses '...'): $m"
done
echo "check_docs: ${#files[@]} files, $checked examples checked, ${#skipped[@]} skipped"
if [ "$failed" = 1 ]; then
    if [ "$update" = 1 ]; then
        echo "check_docs: documented outputs rewritten where they could be; review with git diff"
    else
        echo "check_docs: FAILED (scripts/check_docs.sh --update rewrites the outputs)"
    fi
    exit 1
fi
echo "check_docs: ok"
