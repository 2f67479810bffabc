package wardrobe_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestRecalculateStatsSkipsCorrupt holds both stores to one report when
// the table holds what another writer left corrupt: a clothing of an
// unknown status and a daily counter whose count is no Number. Each is
// reported in Skipped (the clothing whose counter it is with it), never
// dropped without a word, and the rest is checked and repaired.
func TestRecalculateStatsSkipsCorrupt(t *testing.T) {
	type store struct {
		s   wardrobe.Store
		put func(item)
	}
	stores := []struct {
		name string
		new  func(t *testing.T) store
	}{
		{"memory", func(t *testing.T) store {
			s := wardrobe.NewMemoryStore(deterministic, func(o *wardrobe.Options) { o.TableName = "repair" })
			return store{s, func(it item) { wardrobe.PutRaw(s, it) }}
		}},
		{"dynamo", func(t *testing.T) store {
			s, c, table := newDynamo(t, nil, deterministic)
			return store{s, func(it item) {
				if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
					t.Fatalf("PutItem: %v", err)
				}
			}}
		}},
	}
	var reports [][]string
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			ctx := t.Context()
			s := st.new(t)
			w, err := s.s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
			if err != nil {
				t.Fatalf("CreateWardrobe: %v", err)
			}
			a, err := s.s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "a"})
			if err != nil {
				t.Fatalf("AddClothing: %v", err)
			}
			b, err := s.s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "b"})
			if err != nil {
				t.Fatalf("AddClothing: %v", err)
			}
			if _, err := s.s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260101", ClothingIDs: []string{a.ID, b.ID}}); err != nil {
				t.Fatalf("AddHistory: %v", err)
			}
			s.put(item{"PK": S("W#" + w.ID + "#CLOTH"), "SK": S("CLOTH#bad"), "name": S("lost"), "status": S("LOST")})
			s.put(item{"PK": S("W#" + w.ID + "#COUNT#CLOTH#" + a.ID), "SK": S("DATE#20260102"), "date": S("20260102"),
				"count": &types.AttributeValueMemberBOOL{Value: true}})

			rep, err := s.s.RecalculateStats(ctx, w.ID)
			if err != nil || rep.Checked != 1 || len(rep.Drifts) != 0 || len(rep.Skipped) != 2 {
				t.Fatalf("RecalculateStats = %+v, %v; want b checked, no drift, the bad clothing and a's counter skipped", rep, err)
			}
			var msgs []string
			for i, want := range []string{"CLOTH#bad", "DATE#20260102"} {
				var ce *ddbkit.CorruptItemError
				if !errors.Is(rep.Skipped[i], ddbkit.ErrCorruptItem) || !errors.As(rep.Skipped[i], &ce) || !strings.Contains(ce.Key, want) {
					t.Errorf("Skipped[%d] = %v; want ErrCorruptItem naming %s", i, rep.Skipped[i], want)
				}
				msgs = append(msgs, strings.ReplaceAll(rep.Skipped[i].Error(), ce.Table, "<table>"))
			}
			reports = append(reports, msgs)
		})
	}
	if len(reports) == 2 && !slices.Equal(reports[0], reports[1]) {
		t.Errorf("the stores' Skipped differ:\n memory %q\n dynamo %q", reports[0], reports[1])
	}
}
