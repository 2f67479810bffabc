package kondate

import (
	"crypto/rand"
	"encoding/base32"
	"io"
	mrand "math/rand/v2"
	"sync"

	"github.com/oklog/ulid/v2"

	"github.com/ddbkit/ddbkit"
)

// NewULIDs returns an IDGenerator of ULIDs stamped with clock, as the
// seed's IDs are: 26 characters of Crockford base32, a 48-bit millisecond
// timestamp then 80 random bits. IDs of one generator sort in the order it
// made them: within a millisecond the random part counts up (ulid's
// monotonic entropy), and when the clock goes back, or the count would
// overflow, the timestamp moves on past the last one used. So a key that
// ends with an ID sorts in creation order. It is safe for concurrent use.
func NewULIDs(clock ddbkit.Clock) ddbkit.IDGenerator { return ulids(rand.Reader, clock) }

// SeededULIDs is NewULIDs with random bits from a pseudo-random source
// seeded with seed: deterministic under a deterministic clock. Use it in
// tests and examples only.
func SeededULIDs(seed uint64, clock ddbkit.Clock) ddbkit.IDGenerator {
	var b [32]byte
	for i := range 4 {
		for j := range 8 {
			b[i*8+j] = byte(seed >> (8 * j))
		}
		seed = seed*6364136223846793005 + 1442695040888963407
	}
	return ulids(mrand.NewChaCha8(b), clock)
}

func ulids(r io.Reader, clock ddbkit.Clock) ddbkit.IDGenerator {
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
				panic("kondate: making a ULID: " + err.Error())
			}
			ms++ // the millisecond is used up: move on to the next
		}
	}
}

// shareIDEncoding writes share IDs: lower-case base32 without padding.
var shareIDEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// randomShareID is the default Options.NewShareID: 128 bits from
// crypto/rand, 26 characters. Unlike a ULID, it holds no time and no
// counter, so one share ID tells nothing about another.
func randomShareID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return shareIDEncoding.EncodeToString(b[:])
}
