# bench-table.awk turns the output of bench's benchmarks (go test -bench)
# into the table of ratios that make bench prints, marking each ratio that
# misses issue 15's target: x-handwritten <= 1.1, x-guregu <= 1.0,
# x-memory >= 100, x-1k <= 1.1.
function mark(unit, v) {
	if (unit == "x-handwritten" && v > 1.1) return " !"
	if (unit == "x-guregu" && v > 1.0) return " !"
	if (unit == "x-memory" && v < 100) return " !"
	if (unit == "x-1k" && v > 1.1) return " !"
	return ""
}
/^Benchmark/ {
	name = $1
	sub(/-[0-9]+$/, "", name)
	row = ""
	ns = allocs = ""
	for (i = 3; i < NF; i += 2) {
		unit = $(i + 1)
		if (unit == "ns/op") ns = $i
		else if (unit == "allocs/op") allocs = $i
		else if (unit ~ /^x-/) row = row sprintf("  %s %s%s", substr(unit, 3), $i, mark(unit, $i))
	}
	rows[++n] = sprintf("%-52s %12s ns/op %8s allocs/op %s", name, ns, allocs, row)
	next
}
{ print > "/dev/stderr" }
END {
	print ""
	print "ratios (! marks a missed target: handwritten <= 1.1, guregu <= 1.0, memory >= 100, 1k <= 1.1)"
	for (i = 1; i <= n; i++) print rows[i]
}
