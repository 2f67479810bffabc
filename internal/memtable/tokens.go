package memtable

import (
	"time"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TokenWindow is how long DynamoDB remembers a ClientRequestToken after
// the request that used it.
const TokenWindow = 10 * time.Minute

// Tokens emulates DynamoDB's ClientRequestToken for a memory store: a
// transactional write repeated with the same token and the same writes
// within TokenWindow succeeds without writing again, and one with other
// writes fails as DynamoDB's IdempotentParameterMismatch does. The zero
// value is ready to use. Like a Table, it is guarded by its store's lock.
//
// A memory store consults it only where its DynamoDB twin sends a
// TransactWriteItems, and only for tokens a caller's idempotency key made
// (ddb.RequestToken): a random token never repeats.
type Tokens struct {
	used map[string]tokenUse
}

type tokenUse struct {
	writes string
	at     time.Time
}

// Check reports whether the writes under token were already committed
// (replay: skip them, and succeed), or fails with an error matching
// ddbkit.ErrConflict if the token committed other writes. writes
// describes the whole write set, exactly: two calls with the same writes
// must give the same string.
func (t *Tokens) Check(token, writes string, now time.Time) (replay bool, err error) {
	u, ok := t.used[token]
	switch {
	case !ok || now.Sub(u.at) >= TokenWindow:
		return false, nil
	case u.writes != writes:
		return false, ddb.KeyReused(nil)
	}
	return true, nil
}

// Commit records that the writes under token committed at now, and
// forgets tokens older than TokenWindow.
func (t *Tokens) Commit(token, writes string, now time.Time) {
	if t.used == nil {
		t.used = make(map[string]tokenUse)
	}
	for k, u := range t.used {
		if now.Sub(u.at) >= TokenWindow {
			delete(t.used, k)
		}
	}
	t.used[token] = tokenUse{writes: writes, at: now}
}
