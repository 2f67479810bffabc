package taskmgmt

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// ImportUnchecked stores items in the memory backend exactly as given,
// without Import's check: the tests' way to put there what Import refuses,
// the corrupt items another writer can leave in a DynamoDB table.
func (s *MemoryStore) ImportUnchecked(items ddbkit.TableItems) error {
	for name, its := range items {
		if err := s.m.Import(name, its); err != nil {
			return err
		}
	}
	return nil
}

// The fuzz targets' access to the item codecs and the stream handler's
// conversion of image values (fuzz_test.go).

// AttributeValueOf is the stream handler's conversion of an image value,
// and ItemImage the memory store's stream's conversion of an item.
var (
	AttributeValueOf = attributeValue
	ItemImage        = backend.EventImage
)

// ItemKind is the decoder of one entity kind, and the encoder of the
// value it returns: the item the DynamoDB store writes for it.
type ItemKind struct {
	Name   string
	Decode func(item ddb.Item) (any, error)
	Encode func(v any) ddb.Item
}

// DailyShard is a shard of a daily counter, as ItemKinds decodes it.
type DailyShard struct {
	TeamID string
	Count  DailyCount
	Shard  int
}

// ItemKinds returns the decoder and encoder of every entity kind of the
// task table and the invitation table, reading from the table name.
func ItemKinds(name string) []ItemKind {
	t := table(name)
	return []ItemKind{
		itemKind("user", t, decodeUser, userItem),
		itemKind("team", t, decodeTeam, teamItem),
		itemKind("team_user", t, decodeMember, teamUserItem),
		itemKind("user_team", t, decodeMembership, userTeamItem),
		itemKind("team_tag", t, decodeTag, tagItem),
		itemKind("task", t, decodeTask, taskItem),
		itemKind("invitation", t, decodeInvitation, invitationItem),
		itemKind("counter", t, func(t ddb.Table, item ddb.Item) (DailyShard, error) {
			d, shard, err := decodeDailyShard(t, item)
			if err != nil {
				return DailyShard{}, err
			}
			pk, _ := backend.Str(item, AttrPK)
			team, err := keyID(t, item, AttrPK, pk, segTeam)
			return DailyShard{TeamID: team, Count: d, Shard: shard}, err
		}, func(d DailyShard) ddb.Item { return counterItem(d.TeamID, d.Count, d.Shard) }),
		// The team's totals (COUNTER#ALL), as GetCounts reads them: the
		// counts and the expiry, whatever the sort key.
		itemKind("counter_all", t, func(t ddb.Table, item ddb.Item) (DailyShard, error) {
			c, st, err := decodeCounts(t, item)
			if err != nil {
				return DailyShard{}, err
			}
			team, err := keyID(t, item, AttrPK, st.PK, segTeam)
			return DailyShard{TeamID: team, Count: DailyCount{Counts: c, ExpiresAt: epoch(st.ExpiresAt)}}, err
		}, func(d DailyShard) ddb.Item { return counterItem(d.TeamID, d.Count, 0) }),
	}
}

func itemKind[T any](name string, t ddb.Table, dec func(ddb.Table, ddb.Item) (T, error), enc func(T) ddb.Item) ItemKind {
	return ItemKind{
		Name: name,
		Decode: func(item ddb.Item) (any, error) {
			v, err := dec(t, item)
			if err != nil {
				return nil, err
			}
			return v, nil
		},
		Encode: func(v any) ddb.Item { return enc(v.(T)) },
	}
}
