#!/usr/bin/env bash
# Runs every native fuzz target (func FuzzXxx(f *testing.F)) of the three
# modules' packages for FUZZTIME each (30s unless set), one after another,
# and prints a table of executions per target (issue 39). A target added to
# any package is picked up without editing this script: the packages whose
# test files declare a Fuzz function are found with grep, which is cheap,
# and "go test -list" then names the targets each really has, so that a
# function in a comment or a build-tagged file does not make a run of it.
#
# A target that fails leaves its input under the package's
# testdata/fuzz/<Target>/, as go test does; the run goes on with the next
# target and exits non-zero at the end. FUZZFLAGS adds flags to every
# go test -fuzz (say FUZZFLAGS=-parallel=1 on a machine shared with others).
set -uo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
FUZZFLAGS=${FUZZFLAGS:-}

# The packages of the three modules (go.work) whose tests declare a target.
dirs=$(grep -rlE --include='*_test.go' '^func Fuzz[A-Z0-9_][A-Za-z0-9_]*\(f \*testing\.F\)' . |
	grep -v '/testdata/' | xargs -r -n1 dirname | sort -u)
if [ -z "$dirs" ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 1
fi

targets=() # "dir target"
for d in $dirs; do
	names=$(cd "$d" && $GO test -list '^Fuzz' . 2>&1) || {
		echo "fuzz: go test -list in $d failed:" >&2
		echo "$names" >&2
		exit 1
	}
	for n in $(echo "$names" | grep -E '^Fuzz'); do
		targets+=("$d $n")
	done
done

log=$(mktemp)
table=$(mktemp)
trap 'rm -f "$log" "$table"' EXIT
status=0
for t in "${targets[@]}"; do
	read -r d n <<<"$t"
	echo "fuzz: $d $n for $FUZZTIME" >&2
	# Each package from its own directory: go test runs a module's package
	# from there, whichever of the three modules holds it.
	(cd "$d" && $GO test -run='^$' -fuzz="^$n\$" -fuzztime="$FUZZTIME" $FUZZFLAGS .) >"$log" 2>&1
	rc=$?
	# The last "execs: N" line is the run's total.
	execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
	result=ok
	if [ $rc -ne 0 ]; then
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			# go test's coordinator can miss its own deadline on a loaded
			# machine (a worker busy minimizing when -fuzztime ends) and
			# report it as a failure with no input: not a finding.
			result=ok-late
		else
			result=FAIL
			status=1
			cat "$log" >&2
		fi
	fi
	printf '%s\t%s\t%s\t%s\n' "${d#./}" "$n" "${execs:-0}" "$result" >>"$table"
done

echo
awk -F '\t' '
	{ row[NR] = $0; for (i = 1; i <= NF; i++) if (length($i) > w[i]) w[i] = length($i) }
	END {
		for (r = 1; r <= NR; r++) {
			n = split(row[r], f, "\t")
			for (i = 1; i <= n; i++) printf("%" (i == 3 ? "" : "-") (i < n ? w[i] : "") "s%s", f[i], i < n ? "  " : "")
			printf("\n")
		}
	}' <(printf 'PACKAGE\tTARGET\tEXECS\tRESULT\n'; cat "$table")
exit $status
