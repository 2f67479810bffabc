package kondate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// stepClock makes the examples' times and ULIDs deterministic: one second
// per reading of the clock from 2026-02-09 10:00 UTC, the seed's day.
func stepClock(o *kondate.Options) {
	o.Clock = ddbkit.StepClock(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC), time.Second)
	o.NewID = ddbkit.SeededULIDs(1, o.Clock)
}

func Example() {
	ctx := context.Background()
	s := kondate.NewMemoryStore(stepClock)
	const user = "u_01"
	mabo, err := s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: "麻婆豆腐",
		Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}}, Steps: []string{"切る", "煮る"}, Origin: "manual"})
	if err != nil {
		panic(err)
	}
	soup, _ := s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: "味噌汁"})
	fmt.Println(len(mabo.ID), mabo.CreatedAt.Format(time.RFC3339))

	// GET /v1/recipes/{id}: by ID alone, through GSI1 on DynamoDB.
	found, _ := s.FindRecipe(ctx, mabo.ID)
	fmt.Println(found.Title, found.UserID, found.Ingredients)

	// Newest first: the sort key ends with a ULID.
	page, _ := s.ListRecipes(ctx, user, ddbkit.PageOptions{})
	for _, r := range page.Items {
		fmt.Println("recipe:", r.Title)
	}

	// A set applied to the next plan, then promoted to the current one.
	set, _ := s.CreateSet(ctx, user, kondate.NewSet{Title: "中華セット",
		Items: []kondate.SetItem{{RecipeID: mabo.ID, Title: mabo.Title}, {RecipeID: soup.ID, Title: soup.Title}}})
	next, _ := s.ApplySet(ctx, user, kondate.PlanNext, set.ID)
	fmt.Println(next.Slot, next.SetTitle, len(next.Items), next.AppliedAt.Format(time.RFC3339))
	cur, _ := s.PromoteNextPlan(ctx, user)
	_, err = s.GetPlan(ctx, user, kondate.PlanNext)
	fmt.Println(cur.Slot, cur.SetTitle, errors.Is(err, ddbkit.ErrNotFound))

	// The month's cooking log: begins_with(SK, "COOKLOG#2026-02").
	for _, d := range []string{"2026-01-31", "2026-02-09", "2026-02-10"} {
		if _, err := s.AddCookLog(ctx, user, kondate.NewCookLog{Date: d, RecipeID: mabo.ID, Title: mabo.Title}); err != nil {
			panic(err)
		}
	}
	logs, _ := s.ListCookLogsByMonth(ctx, user, "2026-02", ddbkit.PageOptions{})
	for _, l := range logs.Items {
		fmt.Println("cooked:", l.Date, l.Title)
	}
	// Output:
	// 26 2026-02-09T10:00:00Z
	// 麻婆豆腐 u_01 [{豆腐 1丁}]
	// recipe: 味噌汁
	// recipe: 麻婆豆腐
	// NEXT 中華セット 2 2026-02-09T10:00:06Z
	// CURRENT 中華セット true
	// cooked: 2026-02-09 麻婆豆腐
	// cooked: 2026-02-10 麻婆豆腐
}

// Deleting a fridge item moves it to the archive (FRIDGE_DELETED#), in one
// transaction; restoring moves it back. The archive keeps it for
// DeletedFridgeRetention.
func ExampleMemoryStore_DeleteFridgeItem() {
	ctx := context.Background()
	s := kondate.NewMemoryStore(stepClock)
	const user = "u_01"
	eggs, _ := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12"})
	_, _ = s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "にんじん"})

	gone, err := s.DeleteFridgeItem(ctx, user, eggs.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println("deleted", gone.Name, "at", gone.DeletedAt.Format(time.RFC3339))
	deleted, _ := s.ListDeletedFridgeItems(ctx, user, ddbkit.PageOptions{})
	fridge, _ := s.ListFridgeItems(ctx, user, ddbkit.PageOptions{})
	fmt.Println("archive", len(deleted.Items), "fridge", len(fridge.Items))

	// Restoring needs DeletedAt, which the archive's key holds.
	back, err := s.RestoreFridgeItem(ctx, user, gone.Ref)
	fmt.Println("restored", back.Name, back.Quantity, back.ExpiryDate, err)
	_, err = s.RestoreFridgeItem(ctx, user, gone.Ref)
	fmt.Println("again:", errors.Is(err, ddbkit.ErrNotFound))
	fridge, _ = s.ListFridgeItems(ctx, user, ddbkit.PageOptions{})
	for _, f := range fridge.Items {
		fmt.Println("fridge:", f.Name)
	}
	// Output:
	// deleted 卵 at 2026-02-09T10:00:04Z
	// archive 1 fridge 1
	// restored 卵 6個 2026-02-12 <nil>
	// again: true
	// fridge: 卵
	// fridge: にんじん
}

// A request that the caller repeats (its client timed out, say) under the
// same idempotency key never applies the write twice: the repeat returns
// the first call's plan, applied at the first call's time, and writes
// nothing. A new request takes a new key.
func ExampleMemoryStore_ApplySet_idempotencyKey() {
	ctx := context.Background()
	s := kondate.NewMemoryStore(stepClock)
	const user = "u_01"
	set, _ := s.CreateSet(ctx, user, kondate.NewSet{Title: "和食セット", Items: []kondate.SetItem{{Title: "肉じゃが"}}})

	req1 := ddbkit.WithIdempotencyKey(ctx, "req-0001")
	p, err := s.ApplySet(req1, user, kondate.PlanNext, set.ID)
	fmt.Println("applied at", p.AppliedAt.Format(time.RFC3339), err)

	p, err = s.ApplySet(req1, user, kondate.PlanNext, set.ID)
	fmt.Println("repeat: applied at", p.AppliedAt.Format(time.RFC3339), err)
	p, _ = s.GetPlan(ctx, user, kondate.PlanNext)
	fmt.Println("still applied at", p.AppliedAt.Format(time.RFC3339))

	p, err = s.ApplySet(ddbkit.WithIdempotencyKey(ctx, "req-0002"), user, kondate.PlanNext, set.ID)
	fmt.Println("new request: applied at", p.AppliedAt.Format(time.RFC3339), err)
	// Output:
	// applied at 2026-02-09T10:00:02Z <nil>
	// repeat: applied at 2026-02-09T10:00:02Z <nil>
	// still applied at 2026-02-09T10:00:02Z
	// new request: applied at 2026-02-09T10:00:05Z <nil>
}

// An HTTP API passes the request's Idempotency-Key header to the store
// (ddbkit.WithIdempotencyKey): a client that retries POST /v1/recipes
// after a timeout gets the first call's recipe, with its ID, and no second
// recipe; a key reused for another body is 422 Unprocessable Entity.
func Example_idempotencyKey() {
	s := kondate.NewMemoryStore(stepClock)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/recipes", func(w http.ResponseWriter, r *http.Request) {
		var in kondate.NewRecipe
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ctx := ddbkit.WithIdempotencyKey(r.Context(), r.Header.Get("Idempotency-Key"))
		const user = "u_01" // in a real API, the authenticated user
		recipe, err := s.CreateRecipe(ctx, user, in)
		switch {
		case errors.Is(err, ddbkit.ErrIdempotencyKeyReused): // before ErrConflict, which it matches too
			http.Error(w, "the Idempotency-Key was used for another request", http.StatusUnprocessableEntity)
		case errors.Is(err, ddbkit.ErrConflict):
			http.Error(w, err.Error(), http.StatusConflict)
		case errors.Is(err, ddbkit.ErrInvalidArgument):
			http.Error(w, err.Error(), http.StatusBadRequest)
		case err != nil:
			http.Error(w, "internal error", http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(recipe)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	post := func(key, body string) {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/recipes", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		res, err := srv.Client().Do(req)
		if err != nil {
			panic(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			fmt.Println(res.StatusCode)
			return
		}
		var got kondate.Recipe
		if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
			panic(err)
		}
		fmt.Println(res.StatusCode, got.ID, got.Title, got.CreatedAt.Format(time.RFC3339))
	}
	post("3f1c9e4a", `{"title":"麻婆豆腐","steps":["切る","煮る"]}`)
	post("3f1c9e4a", `{"title":"麻婆豆腐","steps":["切る","煮る"]}`) // the client's retry
	post("3f1c9e4a", `{"title":"味噌汁"}`)                      // the same key, another body
	// Output:
	// 201 01KH0XG07873M054066ANZFRPR 麻婆豆腐 2026-02-09T10:00:00Z
	// 201 01KH0XG07873M054066ANZFRPR 麻婆豆腐 2026-02-09T10:00:00Z
	// 422
}

// The table's design is data: the same definition creates the table,
// reconciles an existing one (EnsureTable) and goes into infrastructure
// code.
func ExampleDefinition() {
	resource, err := kondate.Definition("MainTable").CloudFormation()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(resource))
	// Output:
	// {
	//   "Type": "AWS::DynamoDB::Table",
	//   "Properties": {
	//     "TableName": "MainTable",
	//     "AttributeDefinitions": [
	//       {
	//         "AttributeName": "PK",
	//         "AttributeType": "S"
	//       },
	//       {
	//         "AttributeName": "SK",
	//         "AttributeType": "S"
	//       },
	//       {
	//         "AttributeName": "GSI1PK",
	//         "AttributeType": "S"
	//       },
	//       {
	//         "AttributeName": "GSI1SK",
	//         "AttributeType": "S"
	//       }
	//     ],
	//     "KeySchema": [
	//       {
	//         "AttributeName": "PK",
	//         "KeyType": "HASH"
	//       },
	//       {
	//         "AttributeName": "SK",
	//         "KeyType": "RANGE"
	//       }
	//     ],
	//     "BillingMode": "PAY_PER_REQUEST",
	//     "GlobalSecondaryIndexes": [
	//       {
	//         "IndexName": "GSI1",
	//         "KeySchema": [
	//           {
	//             "AttributeName": "GSI1PK",
	//             "KeyType": "HASH"
	//           },
	//           {
	//             "AttributeName": "GSI1SK",
	//             "KeyType": "RANGE"
	//           }
	//         ],
	//         "Projection": {
	//           "ProjectionType": "ALL"
	//         }
	//       }
	//     ],
	//     "TimeToLiveSpecification": {
	//       "AttributeName": "ttl",
	//       "Enabled": true
	//     },
	//     "SSESpecification": {
	//       "SSEEnabled": true
	//     }
	//   }
	// }
}

// A memory store seeded with the seed's own example items, as the seed's
// app puts them (any ISO 8601 time, optional attributes left out), then
// read through the store; Export gives the items back, the store's own
// writes in the form DynamoStore writes them.
func ExampleMemoryStore_Import() {
	ctx := context.Background()
	s := kondate.NewMemoryStore(stepClock)
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	list := func(vs ...types.AttributeValue) types.AttributeValue { return &types.AttributeValueMemberL{Value: vs} }
	err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: {
		{"PK": str("USER#u_01"), "SK": str("RECIPE#r_01"), "GSI1PK": str("ENTITY#RECIPE#r_01"), "GSI1SK": str("OWNER#u_01"),
			"title": str("麻婆豆腐"), "ingredients": list(), "steps": list(str("切る")), "tags": list(str("中華")),
			"origin": str("manual"), "createdAt": str("2026-02-09T19:00:00+09:00"), "updatedAt": str("2026-02-09T10:00:00Z")},
		{"PK": str("USER#u_01"), "SK": str("PLAN#CURRENT"), "setId": str("s_01"), "setTitle": str("中華セット"),
			"appliedAt": str("2026-02-09T10:00:00Z"),
			"items":     list(&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"recipeId": str("r_01"), "title": str("麻婆豆腐")}})},
		{"PK": str("USER#u_01"), "SK": str("COOKLOG#2026-02-09#log_01"), "title": str("麻婆豆腐")},
	}})
	if err != nil {
		panic(err)
	}
	r, err := s.FindRecipe(ctx, "r_01")
	fmt.Println(r.UserID, r.Title, r.CreatedAt.Format(time.RFC3339), err)
	plan, _ := s.GetPlan(ctx, "u_01", kondate.PlanCurrent)
	fmt.Println(plan.SetTitle, len(plan.Items))
	logs, _ := s.ListCookLogsByMonth(ctx, "u_01", "2026-02", ddbkit.PageOptions{})
	fmt.Println(logs.Items[0].ID, logs.Items[0].Date)

	_, _ = s.UpdateRecipe(ctx, "u_01", "r_01", kondate.RecipePatch{Title: ptrTo("麻婆茄子")})
	attr := func(item map[string]types.AttributeValue, name string) string {
		if v, ok := item[name].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return "-"
	}
	for _, item := range s.Export()[kondate.DefaultTableName] {
		fmt.Println(attr(item, "SK"), attr(item, "title"), attr(item, "createdAt"), attr(item, "updatedAt"))
	}

	// An item the DynamoDB store could not read either: nothing imported.
	err = s.Import(ddbkit.TableItems{kondate.DefaultTableName: {{"PK": str("USER#u_01"), "SK": str("RECIPE#r_02"), "createdAt": str("yesterday")}}})
	fmt.Println(errors.Is(err, ddbkit.ErrCorruptItem))
	fmt.Println(err)
	// Output:
	// u_01 麻婆豆腐 2026-02-09T10:00:00Z <nil>
	// 中華セット 1
	// log_01 2026-02-09
	// COOKLOG#2026-02-09#log_01 麻婆豆腐 - -
	// PLAN#CURRENT - - -
	// RECIPE#r_01 麻婆茄子 2026-02-09T19:00:00+09:00 2026-02-09T10:00:00.000Z
	// true
	// kondate: import: corrupt item: table MainTable, key {PK=USER#u_01, SK=RECIPE#r_02}, attribute "createdAt": want an ISO 8601 date and time such as 2026-02-09T10:00:00.000Z, got "yesterday"
}

func ptrTo[T any](v T) *T { return &v }
