package taskmgmt

import (
	"slices"
	"strings"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// Export returns every item the store holds in DynamoDB's attribute-value
// form, by table name (the task table and the invitation table of the
// store's Options, both always present), each table's items in key order
// (PK, then SK, bytewise): the items its operations wrote, exactly as its
// DynamoDB twin writes them (built by the same marshal functions, so the
// two layouts cannot drift), and the items Import took, as they were given
// and then updated. It is what a Scan of the DynamoDB store's tables
// returns after the same calls. The items are copies.
func (s *MemoryStore) Export() ddbkit.TableItems {
	return ddbkit.TableItems{s.t.Name: s.m.Export(s.t.Name), s.it.Name: s.m.Export(s.it.Name)}
}

// Import adds items, in the seed's layout as another program or ddbkit
// writes them, to the store: under the task table's name (Options.TableName)
// users, memberships (both sides), teams, tags, tasks and counters; under
// the invitation table's name (Options.InvitationTableName) invitations. It
// keeps them as they are, as DynamoDB keeps what PutItem wrote: Export
// returns them unchanged, attributes this package does not know and dates
// in another writer's form included; reads decode them as leniently as the
// DynamoDB store reads them (the same decode functions: missing attributes
// read as zero values, IDs come from the keys, dates may carry a time);
// the boards list a task by the index keys it holds; and a write changes
// only what the DynamoDB store's same write changes (an update keeps the
// attributes it does not set). An item whose key has an existing item's
// replaces it. Imported invitations do not enter the store's stream
// (TakeStream): an import seeds a table, it is no write of the
// application.
//
// It fails, and then imports nothing, with ErrInvalidArgument for items
// under a table name the store does not have, and with ErrCorruptItem (a
// *ddbkit.CorruptItemError naming table, key and attribute) for an item
// the DynamoDB store could not read: an attribute of the wrong type, an
// unknown status or role, an invitation without expiresAt, a nil attribute
// value anywhere in an item (which nothing can encode), or a key not in
// the seed's shape, or not of Strings (which no read of the DynamoDB store
// returns).
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	in := map[string][]ddb.Item{}
	for _, name := range sortedKeys(items) {
		var t ddb.Table
		var readable func(ddb.Table, ddb.Item) error
		switch name {
		case s.t.Name:
			t, readable = s.t, readableTask
		case s.it.Name:
			t, readable = s.it, readableInvitation
		default:
			return wrap(op, ddbkit.Invalid("items", "names table %q; the store has %q and %q", name, s.t.Name, s.it.Name))
		}
		for _, it := range items[name] {
			if err := ddb.CheckAttrs(t, it); err != nil {
				return wrap(op, err)
			}
			if err := readable(t, it); err != nil {
				return wrap(op, err)
			}
			in[name] = append(in[name], it)
		}
	}
	// What the store holds is what it was given: the checks above only
	// make sure the DynamoDB store could read it.
	if err := s.m.Import(s.t.Name, in[s.t.Name]); err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.m.Import(s.it.Name, in[s.it.Name]))
}

// readableInvitation reports an invitation item the DynamoDB store could
// not read, as a *ddbkit.CorruptItemError.
func readableInvitation(t ddb.Table, item ddb.Item) error {
	if err := stringKeys(t, item); err != nil {
		return err
	}
	_, err := decodeInvitation(t, item)
	return err
}

// stringKeys reports an item whose key attributes are not non-empty
// Strings, which no table of the seed holds.
func stringKeys(t ddb.Table, item ddb.Item) error {
	for _, a := range []string{AttrPK, AttrSK} {
		if v, _ := backend.Str(item, a); v == "" {
			return ddb.Corrupt(t, item, a, "must be a non-empty String")
		}
	}
	return nil
}

// readableTask reports an item of the task table that the DynamoDB store's
// reads of its key could not decode, as a *ddbkit.CorruptItemError: it
// decodes the item by the shape of its key, as those reads do.
func readableTask(t ddb.Table, item ddb.Item) error {
	if err := stringKeys(t, item); err != nil {
		return err
	}
	pkv, _ := backend.Str(item, AttrPK)
	sk, _ := backend.Str(item, AttrSK)
	seg, _, _ := strings.Cut(sk, keys.Sep)
	var err error
	switch {
	case strings.HasPrefix(pkv, backend.RecordPrefix) && sk == pkv:
		// An idempotency record (see the package doc's "Idempotency
		// keys"), as an Export holds it: kept as it is.
	case strings.HasPrefix(pkv, segUser+keys.Sep) && sk == pkv:
		_, err = decodeUser(t, item)
	case strings.HasPrefix(pkv, segUser+keys.Sep) && seg == segTeam:
		_, err = decodeMembership(t, item)
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && sk == pkv:
		_, err = decodeTeam(t, item)
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segUser:
		_, err = decodeMember(t, item)
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segTag:
		_, err = decodeTag(t, item)
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segTask:
		_, err = decodeTask(t, item)
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segCounter:
		if _, err = keyID(t, item, AttrPK, pkv, segTeam); err != nil {
			return err
		}
		if day, _, ok := counterSK(sk); ok && day == "" {
			_, _, err = decodeCounts(t, item)
		} else {
			_, _, err = decodeDailyShard(t, item)
		}
	case strings.HasPrefix(pkv, segUser+keys.Sep) || strings.HasPrefix(pkv, segTeam+keys.Sep):
		err = ddb.Corrupt(t, item, AttrSK, "%q is no item of partition %q in the seed's layout", sk, pkv)
	default:
		err = ddb.Corrupt(t, item, AttrPK, "%q is not USER#<id> or TEAM#<id>", pkv)
	}
	return err
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
