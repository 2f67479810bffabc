package wardrobe

import (
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The item layouts in plain Go types, as attributevalue writes them: what
// the layout structs of items.go, whose field types write the seed's
// format themselves, must equal attribute for attribute.
type seedWardrobe struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	WardrobeID string `dynamodbav:"wardrobeId"`
	Name       string `dynamodbav:"name"`
	CreatedAt  int64  `dynamodbav:"createdAt"`
}

// seedWorn is a clothing (clothingId, imageKey) or a template (templateId,
// clothingIds).
type seedWorn struct {
	PK           string   `dynamodbav:"PK"`
	SK           string   `dynamodbav:"SK"`
	ClothingID   string   `dynamodbav:"clothingId,omitempty"`
	TemplateID   string   `dynamodbav:"templateId,omitempty"`
	Name         string   `dynamodbav:"name"`
	Status       string   `dynamodbav:"status"`
	ImageKey     string   `dynamodbav:"imageKey,omitempty"`
	ClothingIDs  []string `dynamodbav:"clothingIds,omitempty"`
	WearCount    int      `dynamodbav:"wearCount"`
	LastWornAt   int64    `dynamodbav:"lastWornAt"`
	StatsVersion int64    `dynamodbav:"statsVersion"`
	CreatedAt    int64    `dynamodbav:"createdAt"`
	DeletedAt    *int64   `dynamodbav:"deletedAt"`
	StatusListPK string   `dynamodbav:"statusListPk"`
	CreatedAtSK  string   `dynamodbav:"createdAtSk"`
	WearCountSK  string   `dynamodbav:"wearCountSk"`
	LastWornAtSK string   `dynamodbav:"lastWornAtSk"`
}

type seedHistory struct {
	PK          string   `dynamodbav:"PK"`
	SK          string   `dynamodbav:"SK"`
	HistoryID   string   `dynamodbav:"historyId"`
	CreatedAt   int64    `dynamodbav:"createdAt"`
	Date        string   `dynamodbav:"date"`
	TemplateID  *string  `dynamodbav:"templateId"`
	ClothingIDs []string `dynamodbav:"clothingIds"`
	DateSK      string   `dynamodbav:"dateSk"`
}

// seedCounter is a daily counter as wear's updates leave it: ADD count
// creates it with its date, SET count lowers it.
type seedCounter struct {
	PK    string `dynamodbav:"PK"`
	SK    string `dynamodbav:"SK"`
	Count int    `dynamodbav:"count"`
	Date  string `dynamodbav:"date"`
}

// TestMarshalEqualsTaggedStructs: the marshal functions give exactly the
// items attributevalue makes of the plain layouts.
func TestMarshalEqualsTaggedStructs(t *testing.T) {
	at := time.UnixMilli(1767225600123).UTC()
	check := func(name string, got ddb.Item, err error, layout any) {
		t.Helper()
		want, werr := attributevalue.MarshalMap(layout)
		if err != nil || werr != nil {
			t.Fatalf("%s: %v, %v", name, err, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", name, got, want)
		}
	}
	w := Wardrobe{ID: "wd1", Name: "", CreatedAt: at}
	got, err := marshalWardrobe(itemKey{"W#wd1", "META"}, w)
	check("wardrobe", got, err, seedWardrobe{PK: "W#wd1", SK: "META", WardrobeID: "wd1", CreatedAt: at.UnixMilli()})
	for _, c := range []worn{
		{kind: KindClothing, wardrobeID: "wd1", id: "cl1", name: "白シャツ", status: StatusActive, imageKey: "i.jpg", createdAt: at},
		{kind: KindClothing, wardrobeID: "wd1", id: "cl2", status: StatusDeleted, st: stats{3, 1767571200000, 4}, createdAt: at, deletedAt: at},
		{kind: KindTemplate, wardrobeID: "wd1", id: "tp1", name: "t", status: StatusActive, clothingIDs: []string{"a", "b"}, createdAt: at},
		{kind: KindTemplate, wardrobeID: "wd1", id: "tp2", name: "t", status: StatusActive, clothingIDs: []string{}, createdAt: time.UnixMilli(0)},
	} {
		got, err := marshalWorn(c)
		k, _ := c.key()
		ik, _ := c.indexKeys()
		it := seedWorn{PK: k.pk, SK: k.sk, Name: c.name, Status: string(c.status), ImageKey: c.imageKey,
			ClothingIDs: c.clothingIDs, WearCount: c.st.count, LastWornAt: c.st.lastMs, StatsVersion: c.st.version, CreatedAt: c.createdAt.UnixMilli(),
			StatusListPK: ik.statusList, CreatedAtSK: ik.created, WearCountSK: ik.wear, LastWornAtSK: ik.lastWorn}
		if c.kind == KindTemplate {
			it.TemplateID = c.id
		} else {
			it.ClothingID = c.id
		}
		if !c.deletedAt.IsZero() {
			ms := c.deletedAt.UnixMilli()
			it.DeletedAt = &ms
		}
		check(c.id, got, err, it)
	}
	for _, h := range []History{
		{ID: "hs1", Date: "20260105", TemplateID: "tp1", ClothingIDs: []string{"a"}, CreatedAt: at},
		{ID: "hs2", Date: "20260105", ClothingIDs: []string{"a", "b"}, CreatedAt: at},
		{ID: "hs3", Date: "20260105"},
	} {
		k := itemKey{"W#wd1#HIST", "HIST#" + h.ID}
		got, err := marshalHistory(k, h)
		dsk, _ := historyDateSK(h.Date, h.ID)
		it := seedHistory{PK: k.pk, SK: k.sk, HistoryID: h.ID, CreatedAt: h.CreatedAt.UnixMilli(), Date: string(h.Date),
			ClothingIDs: h.ClothingIDs, DateSK: dsk}
		if h.TemplateID != "" {
			it.TemplateID = &h.TemplateID
		}
		check(h.ID, got, err, it)
	}
	got, err = marshalCounter(itemKey{"p", "DATE#20260105"}, DailyWear{Date: "20260105", Count: 2})
	check("counter", got, err, seedCounter{PK: "p", SK: "DATE#20260105", Count: 2, Date: "20260105"})
}

// TestCodecsPlanned: every layout is encoded and decoded without
// attributevalue's reflection, so none slows down unnoticed.
func TestCodecsPlanned(t *testing.T) {
	for name, planned := range map[string]bool{
		"wardrobe": wardrobeCodec.Planned(), "wardrobe read": wardrobeReadCodec.Planned(),
		"worn": wornCodec.Planned(), "worn read": wornReadCodec.Planned(),
		"history": historyCodec.Planned(), "history read": historyReadCodec.Planned(),
		"counter": counterCodec.Planned(), "counter read": counterReadCodec.Planned(),
	} {
		if !planned {
			t.Errorf("%s codec: Planned() = false, want true", name)
		}
	}
}
