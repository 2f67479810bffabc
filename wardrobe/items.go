package wardrobe

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The item layouts this package writes, attribute for attribute as the
// seed gives them, are built by the marshal functions of this file. Times
// are Unix ms Numbers; deletedAt and a history's templateId are NULL when
// unset. (Reads are lenient: see decode.go.)

// Attribute names.
const (
	attrName         = "name"
	attrStatus       = "status"
	attrImageKey     = "imageKey"
	attrClothingIDs  = "clothingIds"
	attrWearCount    = "wearCount"
	attrLastWornAt   = "lastWornAt"
	attrStatsVersion = "statsVersion"
	attrCreatedAt    = "createdAt"
	attrDeletedAt    = "deletedAt"
	attrCount        = "count"
	attrDate         = "date"
	attrTemplateID   = "templateId"
	attrClothingID   = "clothingId"
	attrHistoryID    = "historyId"
	attrWardrobeID   = "wardrobeId"
)

func marshalWardrobe(k itemKey, w Wardrobe) (ddb.Item, error) {
	return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk), attrWardrobeID: ddb.S(w.ID), attrName: ddb.S(w.Name),
		attrCreatedAt: num(w.CreatedAt.UnixMilli())}, nil
}

func marshalWorn(w worn) (ddb.Item, error) {
	k, err := w.key()
	if err != nil {
		return nil, err
	}
	ik, err := w.indexKeys()
	if err != nil {
		return nil, err
	}
	it := make(ddb.Item, 16)
	it[AttrPK], it[AttrSK] = ddb.S(k.pk), ddb.S(k.sk)
	if w.kind == KindTemplate {
		it[attrTemplateID] = ddb.S(w.id)
	} else {
		it[attrClothingID] = ddb.S(w.id)
	}
	it[attrName], it[attrStatus] = ddb.S(w.name), ddb.S(string(w.status))
	if w.imageKey != "" {
		it[attrImageKey] = ddb.S(w.imageKey)
	}
	if w.clothingIDs != nil { // as attributevalue's omitempty: an empty list is kept
		it[attrClothingIDs] = strs(w.clothingIDs)
	}
	it[attrWearCount], it[attrLastWornAt], it[attrStatsVersion] = num(int64(w.st.count)), num(w.st.lastMs), num(w.st.version)
	it[attrCreatedAt], it[attrDeletedAt] = num(w.createdAt.UnixMilli()), newNull()
	if !w.deletedAt.IsZero() {
		it[attrDeletedAt] = num(w.deletedAt.UnixMilli())
	}
	it[AttrStatusListPK], it[AttrCreatedAtSK] = ddb.S(ik.statusList), ddb.S(ik.created)
	it[AttrWearCountSK], it[AttrLastWornAtSK] = ddb.S(ik.wear), ddb.S(ik.lastWorn)
	return it, nil
}

func marshalHistory(k itemKey, h History) (ddb.Item, error) {
	dsk, err := historyDateSK(h.Date, h.ID)
	if err != nil {
		return nil, err
	}
	tid, ids := newNull(), newNull()
	if h.TemplateID != "" {
		tid = ddb.S(h.TemplateID)
	}
	if h.ClothingIDs != nil {
		ids = strs(h.ClothingIDs)
	}
	return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk), attrHistoryID: ddb.S(h.ID), attrCreatedAt: num(h.CreatedAt.UnixMilli()),
		attrDate: ddb.S(string(h.Date)), attrTemplateID: tid, attrClothingIDs: ids, AttrDateSK: ddb.S(dsk)}, nil
}

// marshalCounter is a daily counter as wear's updates leave it: ADD count
// creates it with its date, SET count lowers it.
func marshalCounter(k itemKey, c DailyWear) (ddb.Item, error) {
	return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk), attrCount: num(int64(c.Count)), attrDate: ddb.S(string(c.Date))}, nil
}

// newNull is a NULL of its own: marshalled items go to callers (Export).
func newNull() types.AttributeValue { return &types.AttributeValueMemberNULL{Value: true} }

// strs is a List of Strings, as the seed's app writes arrays.
func strs(ss []string) *types.AttributeValueMemberL {
	l := make([]types.AttributeValue, len(ss))
	for i, v := range ss {
		l[i] = ddb.S(v)
	}
	return &types.AttributeValueMemberL{Value: l}
}

func num(n int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}
