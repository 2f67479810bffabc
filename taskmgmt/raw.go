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
// form, exactly as its DynamoDB twin writes them, by table name (the task
// table and the invitation table of the store's Options, both always
// present), each table's items in key order (PK, then SK, bytewise). It is
// what a Scan of the DynamoDB store's tables returns after the same calls.
// Items are built by the DynamoDB store's own marshal functions, so the
// two layouts cannot drift.
func (s *MemoryStore) Export() ddbkit.TableItems {
	return ddbkit.TableItems{s.t.Name: s.m.Export(s.t.Name), s.it.Name: s.m.Export(s.it.Name)}
}

// Import adds items, in the seed's layout as another program or ddbkit
// writes them, to the store: under the task table's name (Options.TableName)
// users, memberships (both sides), teams, tags, tasks and counters; under
// the invitation table's name (Options.InvitationTableName) invitations. It
// decodes them exactly as leniently as the DynamoDB store reads them (the
// same decode functions): missing attributes read as zero values, IDs come
// from the keys, dates may carry a time. The store then holds what it
// read, so Export gives each item as the DynamoDB store would write it
// back (canonical dates, index keys computed from status and dates).
// An item whose key has an existing item's replaces it. Imported
// invitations do not enter the store's stream (TakeStream): an import
// seeds a table, it is no write of the application.
//
// It fails, and then imports nothing, with ErrInvalidArgument for items
// under a table name the store does not have, and with ErrCorruptItem (a
// *ddbkit.CorruptItemError naming table, key and attribute) for an item
// the DynamoDB store could not read either: an attribute of the wrong
// type, an unknown status or role, an invitation without expiresAt, a
// nil attribute value anywhere in an item (which nothing can encode), or
// a key not in the seed's shape (which no read of the DynamoDB store
// returns).
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	var tasks, invs []ddb.Item
	for _, name := range sortedKeys(items) {
		switch name {
		case s.t.Name:
			for _, it := range items[name] {
				if err := ddb.CheckAttrs(s.t, it); err != nil {
					return wrap(op, err)
				}
				r, err := recordOf(s.t, it)
				if err != nil {
					return wrap(op, err)
				}
				tasks = append(tasks, r.item())
			}
		case s.it.Name:
			for _, it := range items[name] {
				if err := ddb.CheckAttrs(s.it, it); err != nil {
					return wrap(op, err)
				}
				inv, err := decodeInvitation(s.it, it)
				if err != nil {
					return wrap(op, err)
				}
				invs = append(invs, invitationItem(inv))
			}
		default:
			return wrap(op, ddbkit.Invalid("items", "names table %q; the store has %q and %q", name, s.t.Name, s.it.Name))
		}
	}
	// What the store holds is what it read, written back as the DynamoDB
	// store writes it.
	if err := s.m.Import(s.t.Name, tasks); err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.m.Import(s.it.Name, invs))
}

// record is one item of the task table as the DynamoDB store reads it:
// exactly one of its values is set.
type record struct {
	pk         string
	user       *User
	team       *Team
	member     *Member
	membership *Membership
	tag        *Tag
	task       *Task
	counter    *DailyCount // Date "" for COUNTER#ALL
	shard      int         // the counter's shard (Options.CounterShards)
}

// recordOf decodes an item of the task table by the shape of its key, as
// the DynamoDB store's reads of that key decode it.
func recordOf(t ddb.Table, item ddb.Item) (*record, error) {
	pkv, _ := backend.Str(item, AttrPK)
	sk, _ := backend.Str(item, AttrSK)
	if pkv == "" {
		return nil, ddb.Corrupt(t, item, AttrPK, "must be a non-empty String")
	}
	if sk == "" {
		return nil, ddb.Corrupt(t, item, AttrSK, "must be a non-empty String")
	}
	k := pkv
	seg, _, _ := strings.Cut(sk, keys.Sep)
	switch {
	case strings.HasPrefix(pkv, segUser+keys.Sep) && sk == pkv:
		u, err := decodeUser(t, item)
		return &record{pk: k, user: &u}, err
	case strings.HasPrefix(pkv, segUser+keys.Sep) && seg == segTeam:
		m, err := decodeMembership(t, item)
		return &record{pk: k, membership: &m}, err
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && sk == pkv:
		tm, err := decodeTeam(t, item)
		return &record{pk: k, team: &tm}, err
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segUser:
		m, err := decodeMember(t, item)
		return &record{pk: k, member: &m}, err
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segTag:
		tg, err := decodeTag(t, item)
		return &record{pk: k, tag: &tg}, err
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segTask:
		tk, err := decodeTask(t, item)
		return &record{pk: k, task: &tk}, err
	case strings.HasPrefix(pkv, segTeam+keys.Sep) && seg == segCounter:
		if _, err := keyID(t, item, AttrPK, pkv, segTeam); err != nil {
			return nil, err
		}
		if day, shard, ok := counterSK(sk); ok && day == "" {
			c, st, err := decodeCounts(t, item)
			return &record{pk: k, counter: &DailyCount{Counts: c, ExpiresAt: epoch(st.ExpiresAt)}, shard: shard}, err
		}
		d, shard, err := decodeDailyShard(t, item)
		return &record{pk: k, counter: &d, shard: shard}, err
	case strings.HasPrefix(pkv, segUser+keys.Sep) || strings.HasPrefix(pkv, segTeam+keys.Sep):
		return nil, ddb.Corrupt(t, item, AttrSK, "%q is no item of partition %q in the seed's layout", sk, pkv)
	}
	return nil, ddb.Corrupt(t, item, AttrPK, "%q is not USER#<id> or TEAM#<id>", pkv)
}

// item is the record as the DynamoDB store writes it.
func (r *record) item() ddb.Item {
	switch {
	case r.user != nil:
		return userItem(*r.user)
	case r.team != nil:
		return teamItem(*r.team)
	case r.member != nil:
		return teamUserItem(*r.member)
	case r.membership != nil:
		return userTeamItem(*r.membership)
	case r.tag != nil:
		return tagItem(*r.tag)
	case r.task != nil:
		return taskItem(*r.task)
	}
	teamID, _ := idFrom(r.pk, segTeam)
	return counterItem(teamID, *r.counter, r.shard)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
