package wardrobe_test

import (
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/difftest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestModel runs random operations, valid and invalid, on a memory store
// and a DynamoDB store side by side, and requires the same results, and at
// checkpoints the same stored items (package difftest).
func TestModel(t *testing.T) {
	difftest.Check(t, modelConfig("newModelPair(t)", newModelPair))
}

// TestModelFaults is TestModel with throttling, transaction conflicts,
// unprocessed items, 5xx and lost responses injected on the DynamoDB side,
// which the store's retries must hide.
func TestModelFaults(t *testing.T) {
	difftest.Check(t, modelConfig("newFaultPair(t)", newFaultPair))
}

// newModelPair returns the stores a model run compares; the printed
// regression tests call it too.
func newModelPair(t *testing.T) *difftest.Pair[wardrobe.Store] { return modelPair(t, false) }

func newFaultPair(t *testing.T) *difftest.Pair[wardrobe.Store] { return modelPair(t, true) }

func modelPair(t *testing.T, faults bool) *difftest.Pair[wardrobe.Store] {
	c := ddbtest.Client(t)
	table := ddbtest.NewTable(t, c, wardrobe.CreateTableInput("wardrobe"))
	clock := difftest.NewClock(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	opts := func(o *wardrobe.Options) {
		o.TableName, o.Location, o.Clock = table, jst, clock.Now
		o.NewID = ddbkit.SeededUUIDv7s(7, clock.Now) // a generator per store, same seed
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 20, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
	}
	mem := wardrobe.NewMemoryStore(opts)
	p := &difftest.Pair[wardrobe.Store]{Mem: mem, Export: mem.Export, DB: c, Tables: []string{table}, Clock: clock}
	var client ddbkit.Client = c
	if faults {
		fc := ddbtest.NewFaultClient(c)
		p.Faults = difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.Unprocessed,
			ddbtest.InternalError, ddbtest.LoseResponse)
		client = fc
	}
	p.Dyn = wardrobe.NewDynamoStore(client, opts)
	return p
}

// ref is an item the run created: its wardrobe and its ID.
type ref struct{ w, id string }

func modelConfig(src string, pair func(*testing.T) *difftest.Pair[wardrobe.Store]) difftest.Config[wardrobe.Store] {
	return difftest.Config[wardrobe.Store]{Domain: "wardrobe", New: pair, Source: src,
		Actions: func(r *difftest.Run[wardrobe.Store]) map[string]func(*rapid.T) {
			// The model: what the check created, fresh for each check.
			var wardrobes []string
			var clothes, templates, histories []ref
			badID := difftest.Text(wardrobe.MaxIDLen)
			wardrobeID := func(t *rapid.T) string { return difftest.Pick(t, "wardrobe", wardrobes, badID) }
			// item draws a wardrobe and the ID of an item of pool: mostly
			// one of its own, sometimes of another wardrobe, or anything.
			item := func(t *rapid.T, label string, pool []ref) (string, string) {
				if len(pool) > 0 && rapid.IntRange(0, 99).Draw(t, label+" own?") < 75 {
					x := rapid.SampledFrom(pool).Draw(t, label)
					return x.w, x.id
				}
				return wardrobeID(t), difftest.Pick(t, label+" id", ids(pool), badID)
			}
			name := func(t *rapid.T) string { return difftest.Text(wardrobe.MaxNameLen).Draw(t, "name") }
			date := func(t *rapid.T, label string) wardrobe.Date {
				return rapid.SampledFrom([]wardrobe.Date{"20260101", "20260102", "20260105", "20260105", "20260110",
					"", "2026-01-05", "20260230", "19700101", "19700102", "22861120", "22861121"}).Draw(t, label)
			}
			order := func(t *rapid.T) wardrobe.ListQuery {
				return wardrobe.ListQuery{
					Order:       rapid.SampledFrom([]wardrobe.Order{"", wardrobe.OrderCreatedAt, wardrobe.OrderWearCount, wardrobe.OrderLastWornAt, "NAME"}).Draw(t, "order"),
					Descending:  rapid.Bool().Draw(t, "desc"),
					Status:      rapid.SampledFrom([]wardrobe.Status{"", "", wardrobe.StatusActive, wardrobe.StatusDeleted, "GONE"}).Draw(t, "status"),
					PageOptions: r.PageOptions(t),
				}
			}
			return map[string]func(*rapid.T){
				"CreateWardrobe": func(t *rapid.T) {
					in := wardrobe.NewWardrobe{Name: name(t)}
					w, err := difftest.Call[wardrobe.Wardrobe](r, "CreateWardrobe", r.Ctx(t), in)
					if err == nil {
						wardrobes = append(wardrobes, w.ID)
					}
				},
				"GetWardrobe": func(t *rapid.T) {
					difftest.Call[wardrobe.Wardrobe](r, "GetWardrobe", r.Ctx(t), wardrobeID(t))
				},
				"AddClothing": func(t *rapid.T) {
					w := wardrobeID(t)
					in := wardrobe.NewClothing{Name: name(t)}
					if rapid.Bool().Draw(t, "image?") {
						in.ImageKey = difftest.Text(wardrobe.MaxImageKeyLen).Draw(t, "image")
					}
					c, err := difftest.Call[wardrobe.Clothing](r, "AddClothing", r.Ctx(t), w, in)
					if err == nil {
						clothes = append(clothes, ref{c.WardrobeID, c.ID})
					}
				},
				"GetClothing": func(t *rapid.T) {
					w, id := item(t, "clothing", clothes)
					difftest.Call[wardrobe.Clothing](r, "GetClothing", r.Ctx(t), w, id)
				},
				"ListClothes": func(t *rapid.T) {
					difftest.Call[ddbkit.Page[wardrobe.Clothing]](r, "ListClothes", r.Ctx(t), wardrobeID(t), order(t))
				},
				"UpdateClothing": func(t *rapid.T) {
					w, id := item(t, "clothing", clothes)
					var p wardrobe.ClothingPatch
					if rapid.Bool().Draw(t, "name?") {
						p.Name = difftest.P(name(t))
					}
					if rapid.Bool().Draw(t, "image?") {
						p.ImageKey = difftest.P(rapid.SampledFrom([]string{"", "img/a.png", "img/b.png", strings.Repeat("k", wardrobe.MaxImageKeyLen+1)}).Draw(t, "image"))
					}
					difftest.Call[wardrobe.Clothing](r, "UpdateClothing", r.Ctx(t), w, id, p)
				},
				"DeleteClothing": func(t *rapid.T) {
					w, id := item(t, "clothing", clothes)
					difftest.Call[wardrobe.Clothing](r, "DeleteClothing", r.Ctx(t), w, id)
				},
				"RestoreClothing": func(t *rapid.T) {
					w, id := item(t, "clothing", clothes)
					difftest.Call[wardrobe.Clothing](r, "RestoreClothing", r.Ctx(t), w, id)
				},
				"AddTemplate": func(t *rapid.T) {
					w := wardrobeID(t)
					in := wardrobe.NewTemplate{Name: name(t), ClothingIDs: outfit(t, w, clothes, badID)}
					tp, err := difftest.Call[wardrobe.Template](r, "AddTemplate", r.Ctx(t), w, in)
					if err == nil {
						templates = append(templates, ref{tp.WardrobeID, tp.ID})
					}
				},
				"GetTemplate": func(t *rapid.T) {
					w, id := item(t, "template", templates)
					difftest.Call[wardrobe.Template](r, "GetTemplate", r.Ctx(t), w, id)
				},
				"ListTemplates": func(t *rapid.T) {
					difftest.Call[ddbkit.Page[wardrobe.TemplateSummary]](r, "ListTemplates", r.Ctx(t), wardrobeID(t), order(t))
				},
				"UpdateTemplate": func(t *rapid.T) {
					w, id := item(t, "template", templates)
					var p wardrobe.TemplatePatch
					if rapid.Bool().Draw(t, "name?") {
						p.Name = difftest.P(name(t))
					}
					if rapid.Bool().Draw(t, "clothes?") {
						p.ClothingIDs = outfit(t, w, clothes, badID)
					}
					difftest.Call[wardrobe.Template](r, "UpdateTemplate", r.Ctx(t), w, id, p)
				},
				"DeleteTemplate": func(t *rapid.T) {
					w, id := item(t, "template", templates)
					difftest.Call[wardrobe.Template](r, "DeleteTemplate", r.Ctx(t), w, id)
				},
				"RestoreTemplate": func(t *rapid.T) {
					w, id := item(t, "template", templates)
					difftest.Call[wardrobe.Template](r, "RestoreTemplate", r.Ctx(t), w, id)
				},
				"AddHistory": func(t *rapid.T) {
					w := wardrobeID(t)
					in := wardrobe.NewHistory{Date: date(t, "date"), ClothingIDs: outfit(t, w, clothes, badID)}
					if rapid.Bool().Draw(t, "template?") {
						_, in.TemplateID = item(t, "template", templates)
					}
					h, err := difftest.Call[wardrobe.History](r, "AddHistory", r.Ctx(t), w, in)
					if err == nil {
						histories = append(histories, ref{h.WardrobeID, h.ID})
					}
				},
				"GetHistory": func(t *rapid.T) {
					w, id := item(t, "history", histories)
					difftest.Call[wardrobe.HistoryDetail](r, "GetHistory", r.Ctx(t), w, id)
				},
				"ListHistory": func(t *rapid.T) {
					q := wardrobe.HistoryQuery{From: date(t, "from"), To: date(t, "to"), Descending: rapid.Bool().Draw(t, "desc"),
						PageOptions: r.PageOptions(t)}
					difftest.Call[ddbkit.Page[wardrobe.HistorySummary]](r, "ListHistory", r.Ctx(t), wardrobeID(t), q)
				},
				"DeleteHistory": func(t *rapid.T) {
					w, id := item(t, "history", histories)
					difftest.Exec(r, "DeleteHistory", r.Ctx(t), w, id)
				},
				"ListDailyWear": func(t *rapid.T) {
					kind := rapid.SampledFrom([]wardrobe.Kind{wardrobe.KindClothing, wardrobe.KindClothing, wardrobe.KindTemplate, "HIST"}).Draw(t, "kind")
					pool := clothes
					if kind == wardrobe.KindTemplate {
						pool = templates
					}
					w, id := item(t, "worn", pool)
					q := wardrobe.DailyQuery{From: date(t, "from"), To: date(t, "to"), Descending: rapid.Bool().Draw(t, "desc"),
						PageOptions: r.PageOptions(t)}
					difftest.Call[ddbkit.Page[wardrobe.DailyWear]](r, "ListDailyWear", r.Ctx(t), w, kind, id, q)
				},
				"RecalculateStats": func(t *rapid.T) {
					difftest.Call[wardrobe.StatsReport](r, "RecalculateStats", r.Ctx(t), wardrobeID(t))
				},
			}
		}}
}

func ids(pool []ref) []string {
	out := make([]string, len(pool))
	for i, x := range pool {
		out[i] = x.id
	}
	return out
}

// outfit draws the clothes of an outfit in wardrobe w: 0 to MaxClothes+1
// IDs, mostly clothes of w (ACTIVE or not), with repeats, clothes of other
// wardrobes and bad IDs sometimes.
func outfit(t *rapid.T, w string, clothes []ref, badID *rapid.Generator[string]) []string {
	var own, all []string
	for _, c := range clothes {
		if c.w == w {
			own = append(own, c.id)
		}
		all = append(all, c.id)
	}
	n := rapid.SampledFrom([]int{0, 1, 1, 2, 2, 3, 4, 5, wardrobe.MaxClothes, wardrobe.MaxClothes + 1}).Draw(t, "clothes")
	if n == 0 && rapid.Bool().Draw(t, "nil?") {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = difftest.Pick(t, "clothing", own, rapid.Custom(func(t *rapid.T) string {
			return difftest.Pick(t, "other clothing", all, badID)
		}))
	}
	return out
}

// Divergences the model runs found, as they printed them, shrunk.

// A cancelled context: DynamoStore let the SDK report it ("operation error
// DynamoDB: GetItem, context canceled") where MemoryStore reported the
// context's error; both now check the context at the same point.
func TestModelRegressionCanceled(t *testing.T) {
	p := newModelPair(t)
	difftest.Same(t, p, func(s wardrobe.Store) (wardrobe.StatsReport, error) {
		return s.RecalculateStats(difftest.Canceled(), "a")
	})
}

// One throttled GetItem: DynamoStore's reads (GetItem, Query) were not
// retried, so a throttle became ErrUnavailable; they now retry within
// Options.Retry, as its doc says.
func TestModelRegressionThrottledRead(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	difftest.Same(t, p, func(s wardrobe.Store) (wardrobe.Wardrobe, error) {
		return s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "a"})
	})
	p.Faults.Next("Throttle")
	difftest.Same(t, p, func(s wardrobe.Store) (wardrobe.Template, error) {
		return s.UpdateTemplate(ctx, "019b78c9-0e68-7642-94ca-e8864908e0b8", "work", wardrobe.TemplatePatch{ClothingIDs: []string{"a.b_c"}})
	})
}

// A throttled BatchGetItem: ddb.BatchGet retries unprocessed keys, not a
// call that fails whole, so AddHistory's read failed with ErrUnavailable;
// DynamoStore now retries it whole within Options.Retry.
func TestModelRegressionThrottledBatchGet(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	p.Faults.Next("Throttle")
	difftest.Same(t, p, func(s wardrobe.Store) (wardrobe.History, error) {
		return s.AddHistory(ctx, "30c0ak0f", wardrobe.NewHistory{Date: "20260110", ClothingIDs: []string{"0", "b"}})
	})
}
