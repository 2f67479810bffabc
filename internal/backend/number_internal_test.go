package backend

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// canonNumber keeps a number's value, is idempotent, and its fast path
// agrees with its long way.
func TestCanonNumber(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	for range 20000 {
		var s string
		switch r.IntN(4) {
		case 0:
			s = digits(1 + r.IntN(20))
		case 1:
			s = digits(r.IntN(5)) + "." + digits(r.IntN(8))
		case 2:
			s = digits(1+r.IntN(4)) + "e" + fmt.Sprint(r.IntN(60)-30)
		default:
			s = "0." + strings.Repeat("0", r.IntN(5)) + digits(1+r.IntN(6)) + strings.Repeat("0", r.IntN(3))
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		want, ok := new(big.Rat).SetString(s)
		got, err := canonNumber(s)
		if !ok {
			if err == nil {
				t.Errorf("canonNumber(%q) = %q, want an error", s, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("canonNumber(%q): %v", s, err)
			continue
		}
		if v, _ := new(big.Rat).SetString(got); v == nil || v.Cmp(want) != 0 {
			t.Errorf("canonNumber(%q) = %q: another value", s, got)
		}
		if again, _ := canonNumber(got); again != got {
			t.Errorf("canonNumber(%q) = %q, but canonNumber(%q) = %q", s, got, got, again)
		}
		if plainCanonical(s) && got != s {
			t.Errorf("plainCanonical(%q), but its canonical form is %q", s, got)
		}
	}
}
