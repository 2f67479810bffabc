package ddbkit

import (
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Clock returns the current time. Stores take one as an option so tests can
// fix time; the default is time.Now.
type Clock func() time.Time

// StepClock returns a Clock that starts at start and advances by step on every
// call. It is safe for concurrent use, and gives deterministic, strictly
// increasing timestamps in tests.
func StepClock(start time.Time, step time.Duration) Clock {
	var mu sync.Mutex
	next := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := next
		next = next.Add(step)
		return t
	}
}

// IDGenerator returns a new unique identifier. Stores take one as an option
// so tests can make IDs deterministic; each domain documents which kind of ID
// its default generator makes.
type IDGenerator func() string

// NewUUIDv4 returns a random (version 4) UUID string.
func NewUUIDv4() string { return uuid.NewString() }

// NewUUIDv7 returns a time-ordered (version 7) UUID string stamped with the
// wall clock. A store's default generator is NewUUIDv7s(Options.Clock)
// instead, which follows the store's clock.
func NewUUIDv7() string { return uuid.Must(uuid.NewV7()).String() }

// SeededUUIDv4 returns an IDGenerator of version 4 UUIDs drawn from a
// pseudo-random source seeded with seed: the same seed gives the same
// sequence. It is safe for concurrent use. Use it in tests and examples only.
func SeededUUIDv4(seed uint64) IDGenerator {
	r := &lockedReader{r: rand.NewChaCha8(seedBytes(seed))}
	return func() string { return uuid.Must(uuid.NewRandomFromReader(r)).String() }
}

func seedBytes(seed uint64) [32]byte {
	var b [32]byte
	for i := range 8 {
		b[i] = byte(seed >> (8 * i))
	}
	return b
}

type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

// Read implements io.Reader, one caller at a time.
func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
