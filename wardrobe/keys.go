package wardrobe

import (
	"time"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The seed's key segments. Inputs are validated before keys are built, so
// the keys package's own checks are a second line of defence.
const (
	segWardrobe = "W"
	segMeta     = "META"
	segHistory  = "HIST"
	segCount    = "COUNT"
	segDate     = "DATE"
	segCreated  = "CREATED"
	segWear     = "WEAR"
	segLastWorn = "LASTWORN"

	wearDigits = 10 // WEAR#<10-digit zero-padded count>
	msDigits   = 13 // CREATED# and LASTWORN#: 13-digit Unix ms
)

// plain reports whether v is a key segment that keys.PK and keys.SK take
// as it is: 1 to MaxIDLen bytes of printable ASCII other than the
// separator. Keys of such segments (every ID and date this package makes
// or validates) are joined directly, without keys' checks, which cost
// more than the join itself on the memory store's every lookup; any other
// segment goes through keys, which then reports it.
func plain(v string) bool {
	if len(v) == 0 || len(v) > MaxIDLen {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c >= 0x7f || c == keys.Sep[0] {
			return false
		}
	}
	return true
}

// itemKey is the primary key of one item.
type itemKey struct{ pk, sk string }

// wardrobePK is W#<wardrobeId>, followed by more segments for the
// wardrobe's collections.
func wardrobePK(wardrobeID string, more ...keys.Segment) (string, error) {
	return keys.PK(append([]keys.Segment{keys.Lit(segWardrobe), keys.Field("WardrobeID", wardrobeID)}, more...)...)
}

func wardrobeKey(wardrobeID string) (itemKey, error) {
	if plain(wardrobeID) {
		return itemKey{segWardrobe + keys.Sep + wardrobeID, segMeta}, nil
	}
	pk, err := wardrobePK(wardrobeID)
	return itemKey{pk, segMeta}, err
}

// idField names the ID of each kind in errors.
func (k Kind) idField() string {
	if k == KindTemplate {
		return "TemplateID"
	}
	return "ClothingID"
}

// noun names the kind in messages.
func (k Kind) noun() string {
	if k == KindTemplate {
		return "template"
	}
	return "clothing"
}

// wornKey is the key of a clothing (W#<w>#CLOTH / CLOTH#<id>) or a template
// (W#<w>#TPL / TPL#<id>).
func wornKey(wardrobeID string, kind Kind, id string) (itemKey, error) {
	if kind.Valid() && plain(wardrobeID) && plain(id) {
		return itemKey{segWardrobe + keys.Sep + wardrobeID + keys.Sep + string(kind), string(kind) + keys.Sep + id}, nil
	}
	pk, err := wardrobePK(wardrobeID, keys.Lit(string(kind)))
	if err != nil {
		return itemKey{}, err
	}
	sk, err := keys.SK(keys.Lit(string(kind)), keys.Field(kind.idField(), id))
	return itemKey{pk, sk}, err
}

// wornKeys is wornKey of each of ids, which share one partition key
// string: a page's thumbnails build many keys of one partition.
func wornKeys(wardrobeID string, kind Kind, ids []string) ([]backend.Key, error) {
	ks := make([]backend.Key, len(ids))
	for i, id := range ids {
		if i > 0 && plain(id) {
			ks[i] = backend.Key{PK: ks[0].PK, SK: string(kind) + keys.Sep + id}
			continue
		}
		k, err := wornKey(wardrobeID, kind, id)
		if err != nil {
			return nil, err
		}
		ks[i] = k.bk()
	}
	return ks, nil
}

func historyPK(wardrobeID string) (string, error) {
	return wardrobePK(wardrobeID, keys.Lit(segHistory))
}

func historyKey(wardrobeID, historyID string) (itemKey, error) {
	if plain(wardrobeID) && plain(historyID) {
		return itemKey{segWardrobe + keys.Sep + wardrobeID + keys.Sep + segHistory, segHistory + keys.Sep + historyID}, nil
	}
	pk, err := historyPK(wardrobeID)
	if err != nil {
		return itemKey{}, err
	}
	sk, err := keys.SK(keys.Lit(segHistory), keys.Field("HistoryID", historyID))
	return itemKey{pk, sk}, err
}

// counterPK is the partition of one item's daily counters:
// W#<w>#COUNT#CLOTH#<id> or W#<w>#COUNT#TPL#<id>.
func counterPK(wardrobeID string, kind Kind, id string) (string, error) {
	return wardrobePK(wardrobeID, keys.Lit(segCount), keys.Lit(string(kind)), keys.Field(kind.idField(), id))
}

func dateSK(d Date) (string, error) { return keys.SK(keys.Lit(segDate), keys.Field("Date", string(d))) }

func counterKey(wardrobeID string, kind Kind, id string, d Date) (itemKey, error) {
	if kind.Valid() && plain(wardrobeID) && plain(id) && plain(string(d)) {
		return itemKey{segWardrobe + keys.Sep + wardrobeID + keys.Sep + segCount + keys.Sep + string(kind) + keys.Sep + id,
			segDate + keys.Sep + string(d)}, nil
	}
	pk, err := counterPK(wardrobeID, kind, id)
	if err != nil {
		return itemKey{}, err
	}
	sk, err := dateSK(d)
	return itemKey{pk, sk}, err
}

// statusListPK is the partition of the three status-list GSIs:
// W#<w>#<CLOTH|TPL>#<ACTIVE|DELETED>.
func statusListPK(wardrobeID string, kind Kind, s Status) (string, error) {
	if kind.Valid() && plain(wardrobeID) && plain(string(s)) {
		return segWardrobe + keys.Sep + wardrobeID + keys.Sep + string(kind) + keys.Sep + string(s), nil
	}
	return wardrobePK(wardrobeID, keys.Lit(string(kind)), keys.Lit(string(s)))
}

// indexKeys are the GSI key attributes of a clothing or template. Every
// write that changes status, wearCount or lastWornAt writes them too, so an
// index entry is never stale.
type indexKeys struct {
	statusList, created, wear, lastWorn string
}

// wornIndexKeys builds the index keys of one clothing or template.
func wornIndexKeys(wardrobeID string, kind Kind, id string, s Status, created time.Time, st stats) (indexKeys, error) {
	var (
		ik  indexKeys
		err error
	)
	if ik.statusList, err = statusListPK(wardrobeID, kind, s); err != nil {
		return ik, err
	}
	if ik.created, err = orderSK(segCreated, created.UnixMilli(), msDigits, kind, id); err != nil {
		return ik, err
	}
	ik.wear, ik.lastWorn, err = statsKeys(kind, id, st)
	return ik, err
}

// statsKeys are the index keys that follow an item's statistics: every
// write of wearCount and lastWornAt writes them too.
func statsKeys(kind Kind, id string, st stats) (wear, lastWorn string, err error) {
	if wear, err = orderSK(segWear, int64(st.count), wearDigits, kind, id); err != nil {
		return "", "", err
	}
	lastWorn, err = orderSK(segLastWorn, st.lastMs, msDigits, kind, id)
	return wear, lastWorn, err
}

// orderSK is <AXIS>#<zero-padded n>#<id>: padding makes the string order
// the numeric order, and the ID breaks ties.
func orderSK(axis string, n int64, width int, kind Kind, id string) (string, error) {
	v, err := keys.Pad(n, width)
	if err != nil {
		return "", err
	}
	if plain(id) {
		return axis + keys.Sep + v + keys.Sep + id, nil
	}
	return keys.SK(keys.Lit(axis), keys.Lit(v), keys.Field(kind.idField(), id))
}

// historyDateSK is DATE#<yyyymmdd>#<historyId>, the HistoryByDate sort key.
func historyDateSK(d Date, historyID string) (string, error) {
	return keys.SK(keys.Lit(segDate), keys.Field("Date", string(d)), keys.Field("HistoryID", historyID))
}

// The listings: each is a KeyQuery that both stores run, so they share
// order, page boundaries and cursors.

func (o Order) index() ddb.Index {
	switch o {
	case OrderWearCount:
		return indexByWearCount
	case OrderLastWornAt:
		return indexByLastWornAt
	}
	return indexByCreatedAt
}

func statusListQuery(t ddb.Table, wardrobeID string, kind Kind, o ListQuery) (ddb.KeyQuery, error) {
	s := o.Status
	if s == "" {
		s = StatusActive
	}
	pk, err := statusListPK(wardrobeID, kind, s)
	return ddb.KeyQuery{Table: t, Index: o.Order.index(), PartitionValue: pk, Descending: o.Descending}, err
}

func historyQuery(t ddb.Table, wardrobeID string, q HistoryQuery) (ddb.KeyQuery, error) {
	pk, err := historyPK(wardrobeID)
	if err != nil {
		return ddb.KeyQuery{}, err
	}
	return ddb.KeyQuery{Table: t, Index: indexHistoryByDate, PartitionValue: pk,
		Sort: dateRange(q.From, q.To), Descending: q.Descending}, nil
}

func dailyQuery(t ddb.Table, wardrobeID string, kind Kind, id string, q DailyQuery) (ddb.KeyQuery, error) {
	pk, err := counterPK(wardrobeID, kind, id)
	if err != nil {
		return ddb.KeyQuery{}, err
	}
	return ddb.KeyQuery{Table: t, PartitionValue: pk, Sort: dateRange(q.From, q.To),
		Descending: q.Descending, ConsistentRead: true}, nil
}

// dateRange matches the DATE#<yyyymmdd>… sort keys of the days from to to,
// both included; an empty end is open. Dates are validated before.
func dateRange(from, to Date) ddb.SortCond {
	lo := segDate + keys.Sep + string(from)
	switch {
	case to != "":
		_, hi := keys.PrefixRange(lo, segDate+keys.Sep+string(to))
		return ddb.SortBetween(lo, hi)
	case from != "":
		return ddb.SortGE(lo)
	}
	return ddb.SortBeginsWith(lo)
}

// latestQuery finds the latest counter of an item before day d that holds
// a wear: a Query newest first, filtered on count > 0 (hasWear) within
// budget items a page, which the caller limits to one item.
func latestQuery(t ddb.Table, wardrobeID string, kind Kind, id string, d Date, budget int) (ddb.KeyQuery, error) {
	pk, err := counterPK(wardrobeID, kind, id)
	if err != nil {
		return ddb.KeyQuery{}, err
	}
	sk, err := dateSK(d)
	return ddb.KeyQuery{Table: t, PartitionValue: pk, Sort: ddb.SortLT(sk), Descending: true, ConsistentRead: true,
		Budget: budget}, err
}

// baseQuery lists one partition of the base table, consistently: the
// clothes or templates of a wardrobe, or one item's daily counters.
func baseQuery(t ddb.Table, pk string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: pk, ConsistentRead: true}
}
