package wardrobe

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/echo"
	"github.com/ddbkit/ddbkit/keys"
)

// This file reads the items of a table that other programs write too (the
// seed's app first): leniently, as far as the seed's layout allows. IDs and
// kinds come from the keys, which every writer must get right; missing
// optional attributes read as their zero values; Numbers are read in any
// form DynamoDB accepts, and times also from ISO 8601 strings. What cannot
// be read at all is a *ddbkit.CorruptItemError naming the attribute. The
// attribute types below carry both directions, so that each item kind's
// layout (items.go) is read leniently and written in the seed's exact
// format, and ddb.Codec calls them without attributevalue's reflection.

// msAttr is a time the seed stores as Unix ms in a Number. It also reads a
// String of digits (Unix ms) or an ISO 8601 date and time, which a writer
// serialising a JavaScript Date might store. NULL or missing is unset; 0 is
// a time, the epoch.
type msAttr struct {
	ms  int64
	set bool
}

func (a *msAttr) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	*a = msAttr{}
	switch v := av.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return nil
	case *types.AttributeValueMemberN:
		n, err := parseInteger(v.Value)
		if err != nil {
			return err
		}
		*a = msAttr{ms: n, set: true}
		return nil
	case *types.AttributeValueMemberS:
		if n, err := strconv.ParseInt(v.Value, 10, 64); err == nil {
			*a = msAttr{ms: n, set: true}
			return nil
		}
		t, err := keys.ParseTime(v.Value)
		if err != nil {
			return fmt.Errorf("want Unix ms or an ISO 8601 time, got %q", echo.Cut(v.Value))
		}
		*a = msAttr{ms: t.UnixMilli(), set: true}
		return nil
	}
	return fmt.Errorf("want a Number of Unix ms, got %T", av)
}

// MarshalDynamoDBAttributeValue writes the seed's form: a Number of Unix
// ms, NULL when unset.
func (a msAttr) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if !a.set {
		return null, nil
	}
	return num(a.ms), nil
}

// msOf is t as Unix ms, set even for the zero time, as the seed writes
// createdAt; msIf leaves the zero time unset, as the seed writes deletedAt.
func msOf(t time.Time) msAttr { return msAttr{ms: t.UnixMilli(), set: true} }

func msIf(t time.Time) msAttr {
	if t.IsZero() {
		return msAttr{}
	}
	return msOf(t)
}

// time returns the time a holds, the zero time if unset.
func (a msAttr) time() time.Time {
	if !a.set {
		return time.Time{}
	}
	return time.UnixMilli(a.ms).UTC()
}

// intAttr is a whole number stored as a Number, in any form DynamoDB
// accepts ("12", "12.0", "1.2E1"). NULL or missing is 0.
type intAttr int64

func (a *intAttr) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	switch v := av.(type) {
	case nil, *types.AttributeValueMemberNULL:
		*a = 0
		return nil
	case *types.AttributeValueMemberN:
		n, err := parseInteger(v.Value)
		*a = intAttr(n)
		return err
	}
	return fmt.Errorf("want a Number, got %T", av)
}

func (a intAttr) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return num(int64(a)), nil
}

// parseInteger reads a Number that holds a whole number, in any notation.
func parseInteger(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	f, _, err := big.ParseFloat(s, 10, 128, big.ToNearestEven)
	if err == nil && f.IsInt() {
		if n, acc := f.Int64(); acc == big.Exact {
			return n, nil
		}
	}
	return 0, fmt.Errorf("want a whole number, got %s", echo.Cut(s))
}

// strList is an ordered list of IDs: a List of Strings, as the seed's app
// writes arrays, or a String Set (whose order DynamoDB does not keep).
// NULL or missing is empty.
type strList []string

func (l *strList) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	switch v := av.(type) {
	case nil, *types.AttributeValueMemberNULL:
		*l = nil
		return nil
	case *types.AttributeValueMemberSS:
		*l = append(strList(nil), v.Value...)
		return nil
	case *types.AttributeValueMemberL:
		out := make(strList, len(v.Value))
		for i, e := range v.Value {
			s, ok := e.(*types.AttributeValueMemberS)
			if !ok {
				return fmt.Errorf("element %d: want a String, got %T", i, e)
			}
			out[i] = s.Value
		}
		*l = out
		return nil
	}
	return fmt.Errorf("want a List of Strings, got %T", av)
}

// MarshalDynamoDBAttributeValue writes a List of Strings, as the seed's app
// writes arrays. (The codec writes a nil strList as NULL, or leaves it out
// with omitempty, before it calls this.)
func (l strList) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return strs(l), nil
}

// nullString is a String the seed writes as NULL when empty. It reads as a
// string field does.
type nullString string

func (s *nullString) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	if v, ok := av.(*types.AttributeValueMemberS); ok {
		*s = nullString(v.Value)
		return nil
	}
	return attributevalue.Unmarshal(av, (*string)(s))
}

func (s nullString) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if s == "" {
		return null, nil
	}
	return ddb.S(string(s)), nil
}

// The decoders of the items listings read (see backend.Decoder): a memory
// store decodes each item it holds once. The wardrobe ID is the one in the
// item's own partition key, W#<wardrobeId>#..., which every listing of it
// queried.
var (
	wornDecoder = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (worn, error) {
		return unmarshalWorn(t, item, wardrobeOf(item))
	}, worn.clone)
	// thumbDecoder keeps a clothing's thumbnail alone, which has nothing
	// to copy on each read (a page's thumbnails are most of its decoding).
	thumbDecoder = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (Thumbnail, error) {
		w, err := unmarshalWorn(t, item, wardrobeOf(item))
		return w.thumbnail(), err
	}, nil)
	historyDecoder = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (History, error) {
		return unmarshalHistory(t, item, wardrobeOf(item))
	}, History.clone)
	counterDecoder = backend.NewDecoder(unmarshalCounter, nil)
	// listedDecoders decode a status list of each kind, where an item of
	// the other kind (which only damaged data puts there) is corrupt.
	listedDecoders = map[Kind]*backend.Decoder[worn]{KindClothing: listed(KindClothing), KindTemplate: listed(KindTemplate)}
)

func listed(kind Kind) *backend.Decoder[worn] {
	return backend.NewDecoder(func(t ddb.Table, item ddb.Item) (worn, error) {
		w, err := unmarshalWorn(t, item, wardrobeOf(item))
		if err == nil && w.kind != kind {
			return worn{}, ddb.Corrupt(t, item, AttrStatusListPK, "a %s in the status list of %s", w.kind.noun(), kind.noun())
		}
		return w, err
	}, worn.clone)
}

// wardrobeOf returns the wardrobe ID in item's partition key.
func wardrobeOf(item ddb.Item) string {
	pk, _ := item[AttrPK].(*types.AttributeValueMemberS)
	if pk == nil {
		return ""
	}
	rest, _ := strings.CutPrefix(pk.Value, segWardrobe+keys.Sep)
	id, _, _ := strings.Cut(rest, keys.Sep)
	return id
}

// The clones copy the clothing lists, so that a caller's change to them
// stays its own.
func (w worn) clone() worn {
	w.clothingIDs = slices.Clone(w.clothingIDs)
	return w
}

func (h History) clone() History {
	h.ClothingIDs = slices.Clone(h.ClothingIDs)
	return h
}

// keyID returns the ID in a sort key <prefix>#<id>.
func keyID(item ddb.Item, prefix string) (string, bool) {
	sk, ok := item[AttrSK].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	id, ok := strings.CutPrefix(sk.Value, prefix+keys.Sep)
	return id, ok && id != "" && !strings.Contains(id, keys.Sep)
}

func unmarshalWardrobe(t ddb.Table, item ddb.Item, wardrobeID string) (Wardrobe, error) {
	var it wardrobeRead
	if err := wardrobeReadCodec.Decode(t, item, &it); err != nil {
		return Wardrobe{}, err
	}
	return Wardrobe{ID: wardrobeID, Name: it.Name, CreatedAt: it.CreatedAt.time()}, nil
}

// unmarshalWorn reads a clothing or a template; its kind and ID come from
// its sort key (CLOTH#<id> or TPL#<id>).
func unmarshalWorn(t ddb.Table, item ddb.Item, wardrobeID string) (worn, error) {
	w := worn{wardrobeID: wardrobeID, raw: item}
	var ok bool
	if w.id, ok = keyID(item, string(KindClothing)); ok {
		w.kind = KindClothing
	} else if w.id, ok = keyID(item, string(KindTemplate)); ok {
		w.kind = KindTemplate
	} else {
		return worn{}, ddb.Corrupt(t, item, AttrSK, "want CLOTH#<clothingId> or TPL#<templateId>")
	}
	var it wornRead
	if err := wornReadCodec.Decode(t, item, &it); err != nil {
		return worn{}, err
	}
	switch Status(it.Status) {
	case StatusActive, StatusDeleted:
	default:
		return worn{}, ddb.Corrupt(t, item, "status", "want ACTIVE or DELETED, got %q", it.Status)
	}
	if it.WearCount < 0 {
		return worn{}, ddb.Corrupt(t, item, "wearCount", "want a count of 0 or more, got %d", it.WearCount)
	}
	if it.LastWornAt.ms < 0 {
		return worn{}, ddb.Corrupt(t, item, "lastWornAt", "want Unix ms of 0 (never worn) or more, got %d", it.LastWornAt.ms)
	}
	w.name, w.status, w.imageKey, w.clothingIDs = it.Name, Status(it.Status), it.ImageKey, it.ClothingIDs
	if w.kind == KindClothing {
		w.clothingIDs = nil
	} else {
		w.imageKey = ""
	}
	w.st = stats{count: int(it.WearCount), lastMs: it.LastWornAt.ms, version: int64(it.StatsVersion)}
	w.createdAt, w.deletedAt = it.CreatedAt.time(), it.DeletedAt.time()
	return w, nil
}

// unmarshalHistory reads a history; its ID comes from its sort key, its
// date from date (yyyymmdd or yyyy-mm-dd) or else from its dateSk.
func unmarshalHistory(t ddb.Table, item ddb.Item, wardrobeID string) (History, error) {
	id, ok := keyID(item, segHistory)
	if !ok {
		return History{}, ddb.Corrupt(t, item, AttrSK, "want HIST#<historyId>")
	}
	var it historyRead
	if err := historyReadCodec.Decode(t, item, &it); err != nil {
		return History{}, err
	}
	d, ok := parseStoredDate(it.Date)
	if !ok {
		// DATE#<yyyymmdd>#<historyId>
		if parts := keys.Split(it.DateSK); len(parts) == 3 && parts[0] == segDate {
			d, ok = parseStoredDate(parts[1])
		}
	}
	if !ok || !d.Valid() {
		return History{}, ddb.Corrupt(t, item, "date", "want a date from %s to %s as yyyymmdd, got %q", MinDate, MaxDate, it.Date)
	}
	return History{ID: id, WardrobeID: wardrobeID, Date: d, TemplateID: string(it.TemplateID),
		ClothingIDs: []string(it.ClothingIDs), CreatedAt: it.CreatedAt.time()}, nil
}

// unmarshalCounter reads a daily counter; its date comes from its sort key
// (DATE#<yyyymmdd>), or else from date.
func unmarshalCounter(t ddb.Table, item ddb.Item) (DailyWear, error) {
	var it counterRead
	if err := counterReadCodec.Decode(t, item, &it); err != nil {
		return DailyWear{}, err
	}
	ds, _ := keyID(item, segDate)
	d, ok := parseStoredDate(ds)
	if !ok {
		d, ok = parseStoredDate(it.Date)
	}
	if !ok || !d.Valid() {
		return DailyWear{}, ddb.Corrupt(t, item, AttrSK, "want DATE#<yyyymmdd> from %s to %s", MinDate, MaxDate)
	}
	return DailyWear{Date: d, Count: int(it.Count)}, nil
}
