package kondate

import (
	"crypto/rand"
	"encoding/base32"

	"github.com/ddbkit/ddbkit"
)

// NewULIDs returns ddbkit.NewULIDs(clock).
//
// Deprecated: use ddbkit.NewULIDs, which every domain shares.
func NewULIDs(clock ddbkit.Clock) ddbkit.IDGenerator { return ddbkit.NewULIDs(clock) }

// SeededULIDs returns ddbkit.SeededULIDs(seed, clock).
//
// Deprecated: use ddbkit.SeededULIDs, which every domain shares.
func SeededULIDs(seed uint64, clock ddbkit.Clock) ddbkit.IDGenerator {
	return ddbkit.SeededULIDs(seed, clock)
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
