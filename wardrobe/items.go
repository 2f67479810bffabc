package wardrobe

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The item layouts, attribute for attribute as the seed gives them: one
// struct per item kind, which ddb.Codec writes in the seed's exact format
// (times as Unix ms Numbers; deletedAt and a history's templateId NULL when
// unset) through the field types' own methods, and whose embedded …Read
// part it reads with them leniently (decode.go).

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

// Each layout embeds the attributes reads decode (the …Read structs, with
// their own codecs); the ID copies and the index keys around them are only
// written, for the table's other readers and its indexes. Reads take the
// same from the key and the attributes, so another writer's damaged copy
// does not make an item unreadable.

type wardrobeItem struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	WardrobeID string `dynamodbav:"wardrobeId"`
	wardrobeRead
}

type wardrobeRead struct {
	Name      string `dynamodbav:"name"`
	CreatedAt msAttr `dynamodbav:"createdAt"`
}

// wornItem is a clothing (clothingId, imageKey) or a template (templateId,
// clothingIds, of which an empty list is kept).
type wornItem struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	ClothingID string `dynamodbav:"clothingId,omitempty"`
	TemplateID string `dynamodbav:"templateId,omitempty"`
	wornRead
	StatusListPK string `dynamodbav:"statusListPk"`
	CreatedAtSK  string `dynamodbav:"createdAtSk"`
	WearCountSK  string `dynamodbav:"wearCountSk"`
	LastWornAtSK string `dynamodbav:"lastWornAtSk"`
}

type wornRead struct {
	Name         string  `dynamodbav:"name"`
	Status       string  `dynamodbav:"status"`
	ImageKey     string  `dynamodbav:"imageKey,omitempty"`
	ClothingIDs  strList `dynamodbav:"clothingIds,omitempty"`
	WearCount    intAttr `dynamodbav:"wearCount"`
	LastWornAt   msAttr  `dynamodbav:"lastWornAt"`
	StatsVersion intAttr `dynamodbav:"statsVersion"`
	CreatedAt    msAttr  `dynamodbav:"createdAt"`
	DeletedAt    msAttr  `dynamodbav:"deletedAt"`
}

type historyItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	HistoryID string `dynamodbav:"historyId"`
	historyRead
}

// historyRead takes dateSk for the date that date may not give.
type historyRead struct {
	CreatedAt   msAttr     `dynamodbav:"createdAt"`
	Date        string     `dynamodbav:"date"`
	TemplateID  nullString `dynamodbav:"templateId"`
	ClothingIDs strList    `dynamodbav:"clothingIds"`
	DateSK      string     `dynamodbav:"dateSk"`
}

// counterItem is a daily counter as wear's updates leave it: ADD count
// creates it with its date, SET count lowers it.
type counterItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	counterRead
}

type counterRead struct {
	Count intAttr `dynamodbav:"count"`
	Date  string  `dynamodbav:"date"`
}

var (
	wardrobeCodec, wardrobeReadCodec = ddb.NewCodec[wardrobeItem](), ddb.NewCodec[wardrobeRead]()
	wornCodec, wornReadCodec         = ddb.NewCodec[wornItem](), ddb.NewCodec[wornRead]()
	historyCodec, historyReadCodec   = ddb.NewCodec[historyItem](), ddb.NewCodec[historyRead]()
	counterCodec, counterReadCodec   = ddb.NewCodec[counterItem](), ddb.NewCodec[counterRead]()
)

func marshalWardrobe(k itemKey, w Wardrobe) (ddb.Item, error) {
	return wardrobeCodec.Encode(&wardrobeItem{PK: k.pk, SK: k.sk, WardrobeID: w.ID,
		wardrobeRead: wardrobeRead{Name: w.Name, CreatedAt: msOf(w.CreatedAt)}})
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
	it := wornItem{PK: k.pk, SK: k.sk, StatusListPK: ik.statusList, CreatedAtSK: ik.created, WearCountSK: ik.wear, LastWornAtSK: ik.lastWorn,
		wornRead: wornRead{Name: w.name, Status: string(w.status), ImageKey: w.imageKey, ClothingIDs: w.clothingIDs,
			WearCount: intAttr(w.st.count), LastWornAt: msAttr{ms: w.st.lastMs, set: true}, StatsVersion: intAttr(w.st.version),
			CreatedAt: msOf(w.createdAt), DeletedAt: msIf(w.deletedAt)}}
	if w.kind == KindTemplate {
		it.TemplateID = w.id
	} else {
		it.ClothingID = w.id
	}
	return wornCodec.Encode(&it)
}

func marshalHistory(k itemKey, h History) (ddb.Item, error) {
	dsk, err := historyDateSK(h.Date, h.ID)
	if err != nil {
		return nil, err
	}
	return historyCodec.Encode(&historyItem{PK: k.pk, SK: k.sk, HistoryID: h.ID, historyRead: historyRead{CreatedAt: msOf(h.CreatedAt),
		Date: string(h.Date), TemplateID: nullString(h.TemplateID), ClothingIDs: h.ClothingIDs, DateSK: dsk}})
}

func marshalCounter(k itemKey, c DailyWear) (ddb.Item, error) {
	return counterCodec.Encode(&counterItem{PK: k.pk, SK: k.sk, counterRead: counterRead{Count: intAttr(c.Count), Date: string(c.Date)}})
}

// null is shared: the backends copy the items they keep and return.
var null types.AttributeValue = &types.AttributeValueMemberNULL{Value: true}

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
