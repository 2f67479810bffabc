package wardrobe_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestJSONNames marshals each model type and checks the names it
// documents: the seed's attribute spelling, optional values left out when
// unset.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	tp := wardrobe.Template{ID: "tp", WardrobeID: "w", Name: "n", Status: wardrobe.StatusActive, ClothingIDs: []string{"c"}, CreatedAt: at}
	h := wardrobe.History{ID: "h", WardrobeID: "w", Date: "20260105", ClothingIDs: []string{"c"}, CreatedAt: at}
	th := wardrobe.Thumbnail{ClothingID: "c", Name: "n"}
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"Wardrobe", wardrobe.Wardrobe{ID: "w", Name: "n", CreatedAt: at},
			`{"wardrobeId":"w","name":"n","createdAt":"2026-01-05T09:00:00Z"}`},
		{"Clothing unset", wardrobe.Clothing{ID: "c", WardrobeID: "w", Name: "n", Status: wardrobe.StatusActive, CreatedAt: at},
			`{"clothingId":"c","wardrobeId":"w","name":"n","status":"ACTIVE","wearCount":0,"createdAt":"2026-01-05T09:00:00Z"}`},
		{"Clothing set", wardrobe.Clothing{ID: "c", WardrobeID: "w", Name: "n", Status: wardrobe.StatusDeleted, ImageKey: "k",
			WearCount: 2, LastWornAt: "20260104", CreatedAt: at, DeletedAt: at},
			`{"clothingId":"c","wardrobeId":"w","name":"n","status":"DELETED","imageKey":"k","wearCount":2,"lastWornAt":"20260104","createdAt":"2026-01-05T09:00:00Z","deletedAt":"2026-01-05T09:00:00Z"}`},
		{"Template", tp,
			`{"templateId":"tp","wardrobeId":"w","name":"n","status":"ACTIVE","clothingIds":["c"],"wearCount":0,"createdAt":"2026-01-05T09:00:00Z"}`},
		{"History", h,
			`{"historyId":"h","wardrobeId":"w","date":"20260105","clothingIds":["c"],"createdAt":"2026-01-05T09:00:00Z"}`},
		{"History with a template", wardrobe.History{ID: "h", WardrobeID: "w", Date: "20260105", TemplateID: "tp", ClothingIDs: []string{"c"}, CreatedAt: at},
			`{"historyId":"h","wardrobeId":"w","date":"20260105","templateId":"tp","clothingIds":["c"],"createdAt":"2026-01-05T09:00:00Z"}`},
		{"Thumbnail", th, `{"clothingId":"c","name":"n","deleted":false}`},
		{"TemplateSummary", wardrobe.TemplateSummary{Template: tp, Thumbnails: []wardrobe.Thumbnail{th}, More: 1},
			`{"templateId":"tp","wardrobeId":"w","name":"n","status":"ACTIVE","clothingIds":["c"],"wearCount":0,"createdAt":"2026-01-05T09:00:00Z","thumbnails":[{"clothingId":"c","name":"n","deleted":false}],"more":1}`},
		{"HistorySummary", wardrobe.HistorySummary{History: h, Thumbnails: []wardrobe.Thumbnail{th}},
			`{"historyId":"h","wardrobeId":"w","date":"20260105","clothingIds":["c"],"createdAt":"2026-01-05T09:00:00Z","thumbnails":[{"clothingId":"c","name":"n","deleted":false}],"more":0}`},
		{"HistoryDetail", wardrobe.HistoryDetail{History: h, Clothes: []wardrobe.Thumbnail{th}},
			`{"historyId":"h","wardrobeId":"w","date":"20260105","clothingIds":["c"],"createdAt":"2026-01-05T09:00:00Z","clothes":[{"clothingId":"c","name":"n","deleted":false}]}`},
		{"DailyWear", wardrobe.DailyWear{Date: "20260105", Count: 2}, `{"date":"20260105","count":2}`},
		{"Drift", wardrobe.Drift{Kind: wardrobe.KindClothing, ID: "c", WearCountWas: 1, WearCount: 2, LastWornAt: "20260105"},
			`{"kind":"CLOTH","id":"c","wearCountWas":1,"wearCount":2,"lastWornAt":"20260105"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil || string(b) != tt.want {
				t.Errorf("json.Marshal = %s, %v\nwant %s", b, err, tt.want)
			}
		})
	}
}
