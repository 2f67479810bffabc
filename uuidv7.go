package ddbkit

import (
	"crypto/rand"
	"encoding/binary"
	"io"
	mrand "math/rand/v2"
	"sync"
	"time"

	"github.com/google/uuid"
)

// UUIDv7Generator makes version 7 UUIDs for given instants.
type UUIDv7Generator func(at time.Time) string

// NewUUIDv7Generator returns a UUIDv7Generator whose IDs sort in the order
// it made them, whatever the instants: the 48-bit timestamp is at's Unix
// millisecond, and the 12 bits after the version count up within one
// millisecond from a random start below 2048 (RFC 9562, method 1). When the
// counter would overflow, or at is earlier than an instant it already used,
// the timestamp advances past the last one used, as RFC 9562 allows, so a
// burst of any size under a frozen clock stays in order. The other 62 bits
// are random, from crypto/rand. It is safe for concurrent use.
func NewUUIDv7Generator() UUIDv7Generator { return uuidV7s(rand.Reader) }

// SeededUUIDv7Generator is NewUUIDv7Generator with random bits from a
// pseudo-random source seeded with seed: the same seed and instants give
// the same IDs. Use it in tests and examples only.
func SeededUUIDv7Generator(seed uint64) UUIDv7Generator {
	return uuidV7s(&lockedReader{r: mrand.NewChaCha8(seedBytes(seed))})
}

// SeededUUIDv7s is NewUUIDv7s with random bits seeded by seed:
// deterministic under a deterministic clock, and in creation order. Use it
// in tests and examples of domains whose design says UUIDv7, so that tests
// run on the production ID kind.
func SeededUUIDv7s(seed uint64, clock Clock) IDGenerator {
	g := SeededUUIDv7Generator(seed)
	return func() string { return g(clock()) }
}

// SeededUUIDv7 returns SeededUUIDv7s(seed, clock).
//
// Deprecated: use SeededUUIDv7s, named as NewUUIDv7s and SeededULIDs are.
func SeededUUIDv7(seed uint64, clock Clock) IDGenerator { return SeededUUIDv7s(seed, clock) }

// NewUUIDv7s returns an IDGenerator of version 7 UUIDs stamped with clock,
// in the order it made them (see NewUUIDv7Generator). Every domain whose
// design says UUIDv7 makes its default IDs with it, stamped with
// Options.Clock, so that an ID's time is the clock's, as its createdAt is.
// It is safe for concurrent use.
func NewUUIDv7s(clock Clock) IDGenerator {
	g := NewUUIDv7Generator()
	return func() string { return g(clock()) }
}

func uuidV7s(r io.Reader) UUIDv7Generator {
	var (
		mu     sync.Mutex
		lastMs int64 = -1
		seq    uint16
	)
	return func(at time.Time) string {
		ms := max(at.UnixMilli(), 0) & (1<<48 - 1)
		var u uuid.UUID
		mu.Lock()
		if _, err := io.ReadFull(r, u[6:]); err != nil {
			mu.Unlock()
			panic("ddbkit: reading random bits for a UUIDv7: " + err.Error())
		}
		switch {
		case ms > lastMs:
			// A new millisecond starts the counter at a random value below
			// 2048, leaving room to count up.
			seq = binary.BigEndian.Uint16(u[6:8]) & 0x7FF
		case seq < 0xFFF:
			ms = lastMs
			seq++
		default:
			ms = lastMs + 1
			seq = binary.BigEndian.Uint16(u[6:8]) & 0x7FF
		}
		lastMs = ms
		counter := seq
		mu.Unlock()
		binary.BigEndian.PutUint16(u[0:2], uint16(ms>>32))
		binary.BigEndian.PutUint32(u[2:6], uint32(ms))
		binary.BigEndian.PutUint16(u[6:8], 0x7000|counter) // version 7, counter
		u[8] = u[8]&0x3F | 0x80                            // RFC 9562 variant
		return u.String()
	}
}
