package ddbkit

import (
	"crypto/rand"
	"io"
	mrand "math/rand/v2"
	"sync"

	"github.com/oklog/ulid/v2"
)

// NewULIDs returns an IDGenerator of ULIDs stamped with clock: 26
// characters of Crockford base32, a 48-bit millisecond timestamp then 80
// random bits from crypto/rand. IDs of one generator sort in the order it
// made them: within a millisecond the random part counts up (ulid's
// monotonic entropy), and when the clock goes back, or the count would
// overflow, the timestamp moves on past the last one used. So a key that
// ends with an ID sorts in creation order. It is safe for concurrent use.
func NewULIDs(clock Clock) IDGenerator { return ulids(rand.Reader, clock) }

// SeededULIDs is NewULIDs with random bits from a pseudo-random source
// seeded with seed: deterministic under a deterministic clock. Use it in
// tests and examples only.
func SeededULIDs(seed uint64, clock Clock) IDGenerator {
	var b [32]byte
	for i := range 4 {
		for j := range 8 {
			b[i*8+j] = byte(seed >> (8 * j))
		}
		seed = seed*6364136223846793005 + 1442695040888963407
	}
	return ulids(mrand.NewChaCha8(b), clock)
}

func ulids(r io.Reader, clock Clock) IDGenerator {
	var (
		mu      sync.Mutex
		last    uint64
		entropy = ulid.Monotonic(r, 0)
	)
	return func() string {
		ms := ulid.Timestamp(clock())
		mu.Lock()
		defer mu.Unlock()
		ms = max(ms, last)
		for {
			id, err := ulid.New(ms, entropy)
			if err == nil {
				last = ms
				return id.String()
			}
			if err != ulid.ErrMonotonicOverflow {
				panic("ddbkit: making a ULID: " + err.Error())
			}
			ms++ // the millisecond is used up: move on to the next
		}
	}
}
