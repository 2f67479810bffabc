package bench

import "testing"

func TestAgree(t *testing.T) {
	tests := []struct {
		name   string
		ratios [][]float64
		tol    float64
		want   bool
	}{
		{"equal rounds", [][]float64{nil, {1, 1, 1, 1, 1}}, 0.02, true},
		{"five rounds, one outlier", [][]float64{nil, {1, 1, 1, 1, 1.5}}, 0.02, false},
		{"forty rounds, two outliers each side", [][]float64{nil, append(repeat(1.0, 36), 0.5, 0.6, 1.5, 1.6)}, 0.02, true},
		{"one ratio agrees, the other does not", [][]float64{nil, {1, 1, 1, 1, 1}, {1, 1.1, 0.9, 1.2, 0.8}}, 0.02, false},
		{"spread within tolerance", [][]float64{nil, {0.99, 1, 1.01, 1, 1}}, 0.02, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agree(tt.ratios, tt.tol); got != tt.want {
				t.Errorf("agree(%v, %g) = %v, want %v", tt.ratios, tt.tol, got, tt.want)
			}
		})
	}
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestRatiosOverhead(t *testing.T) {
	vs := []Variant{{Name: "ddbkit"}, {Name: "handwritten"}, {Name: "otel", Overhead: true}}
	perCall := [][]float64{{100, 200}, {50, 100}, {110, 220}}
	got := ratios(vs, perCall)
	if got[0] != nil {
		t.Errorf("ratios[0] = %v, want nil", got[0])
	}
	for r, want := range []float64{2, 2} {
		if got[1][r] != want {
			t.Errorf("x-handwritten round %d = %g, want %g (variants[0]'s time over its)", r, got[1][r], want)
		}
	}
	for r, want := range []float64{1.1, 1.1} {
		if d := got[2][r] - want; d > 1e-9 || d < -1e-9 {
			t.Errorf("x-otel round %d = %g, want %g (its time over variants[0]'s)", r, got[2][r], want)
		}
	}
}

func TestTargetMeets(t *testing.T) {
	tests := []struct {
		unit string
		v    float64
		want bool
	}{
		{"x-handwritten", 1.1, true},
		{"x-handwritten", 1.11, false},
		{"x-guregu", 1.0, true},
		{"x-memory", 99, false},
		{"x-memory", 100, true},
		{"x-1k", 1.2, false},
		{"x-otel", 1.05, true},
		{"x-otel", 1.06, false},
	}
	for _, tt := range tests {
		var tg Target
		for _, x := range Targets {
			if x.Unit == tt.unit {
				tg = x
			}
		}
		if tg.Unit == "" {
			t.Fatalf("no target for %s", tt.unit)
		}
		if got := tg.Meets(tt.v); got != tt.want {
			t.Errorf("%s (%s).Meets(%g) = %v, want %v", tt.unit, tg, tt.v, got, tt.want)
		}
	}
}
