package kondate_test

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/bench"
)

// The seed's items (section 4 and 6 of seed 003), as a hand-written
// repository or a guregu/dynamo user would lay them out: plain tagged
// structs with their keys. The hand-written and guregu variants decode
// into them and write them; the stub's canned responses are made from
// them.

type ingredientRow struct {
	Name   string `dynamodbav:"name" dynamo:"name"`
	Amount string `dynamodbav:"amount" dynamo:"amount"`
}

type setItemRow struct {
	RecipeID string `dynamodbav:"recipeId" dynamo:"recipeId"`
	Title    string `dynamodbav:"title" dynamo:"title"`
}

type recipeRow struct {
	PK          string          `dynamodbav:"PK" dynamo:"PK"`
	SK          string          `dynamodbav:"SK" dynamo:"SK"`
	GSI1PK      string          `dynamodbav:"GSI1PK" dynamo:"GSI1PK"`
	GSI1SK      string          `dynamodbav:"GSI1SK" dynamo:"GSI1SK"`
	Title       string          `dynamodbav:"title" dynamo:"title"`
	Ingredients []ingredientRow `dynamodbav:"ingredients" dynamo:"ingredients"`
	Steps       []string        `dynamodbav:"steps" dynamo:"steps"`
	Tags        []string        `dynamodbav:"tags" dynamo:"tags"`
	Origin      string          `dynamodbav:"origin" dynamo:"origin"`
	CreatedAt   string          `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt   string          `dynamodbav:"updatedAt" dynamo:"updatedAt"`
	PublishedAt string          `dynamodbav:"publishedAt,omitempty" dynamo:"publishedAt,omitempty"`
}

type setRow struct {
	PK          string       `dynamodbav:"PK" dynamo:"PK"`
	SK          string       `dynamodbav:"SK" dynamo:"SK"`
	GSI1PK      string       `dynamodbav:"GSI1PK" dynamo:"GSI1PK"`
	GSI1SK      string       `dynamodbav:"GSI1SK" dynamo:"GSI1SK"`
	Title       string       `dynamodbav:"title" dynamo:"title"`
	Items       []setItemRow `dynamodbav:"items" dynamo:"items"`
	Tags        []string     `dynamodbav:"tags" dynamo:"tags"`
	CreatedAt   string       `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt   string       `dynamodbav:"updatedAt" dynamo:"updatedAt"`
	PublishedAt string       `dynamodbav:"publishedAt,omitempty" dynamo:"publishedAt,omitempty"`
}

type planRow struct {
	PK        string       `dynamodbav:"PK" dynamo:"PK"`
	SK        string       `dynamodbav:"SK" dynamo:"SK"`
	SetID     string       `dynamodbav:"setId" dynamo:"setId"`
	SetTitle  string       `dynamodbav:"setTitle" dynamo:"setTitle"`
	AppliedAt string       `dynamodbav:"appliedAt,omitempty" dynamo:"appliedAt,omitempty"`
	Items     []setItemRow `dynamodbav:"items" dynamo:"items"`
	UpdatedAt string       `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type shoppingRow struct {
	PK          string `dynamodbav:"PK" dynamo:"PK"`
	SK          string `dynamodbav:"SK" dynamo:"SK"`
	Name        string `dynamodbav:"name" dynamo:"name"`
	Quantity    string `dynamodbav:"quantity" dynamo:"quantity"`
	Checked     bool   `dynamodbav:"checked" dynamo:"checked"`
	CompletedAt string `dynamodbav:"completedAt,omitempty" dynamo:"completedAt,omitempty"`
	CreatedAt   string `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt   string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type fridgeRow struct {
	PK         string `dynamodbav:"PK" dynamo:"PK"`
	SK         string `dynamodbav:"SK" dynamo:"SK"`
	Name       string `dynamodbav:"name" dynamo:"name"`
	Quantity   string `dynamodbav:"quantity" dynamo:"quantity"`
	ExpiryDate string `dynamodbav:"expiryDate" dynamo:"expiryDate"`
	CreatedAt  string `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt  string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
	DeletedAt  string `dynamodbav:"deletedAt,omitempty" dynamo:"deletedAt,omitempty"`
	TTL        int64  `dynamodbav:"ttl,omitempty" dynamo:"ttl,omitempty"`
}

type categoryRow struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	Name      string `dynamodbav:"name" dynamo:"name"`
	CreatedAt string `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type cookLogRow struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	RecipeID  string `dynamodbav:"recipeId" dynamo:"recipeId"`
	Title     string `dynamodbav:"title" dynamo:"title"`
	Note      string `dynamodbav:"note" dynamo:"note"`
	CreatedAt string `dynamodbav:"createdAt" dynamo:"createdAt"`
}

type paymentMethodRow struct {
	PK          string `dynamodbav:"PK" dynamo:"PK"`
	SK          string `dynamodbav:"SK" dynamo:"SK"`
	Provider    string `dynamodbav:"provider" dynamo:"provider"`
	ProviderRef string `dynamodbav:"providerRef" dynamo:"providerRef"`
	Brand       string `dynamodbav:"brand" dynamo:"brand"`
	Last4       string `dynamodbav:"last4" dynamo:"last4"`
	CreatedAt   string `dynamodbav:"createdAt" dynamo:"createdAt"`
}

type purchaseRow struct {
	PK              string `dynamodbav:"PK" dynamo:"PK"`
	SK              string `dynamodbav:"SK" dynamo:"SK"`
	ProductID       string `dynamodbav:"productId" dynamo:"productId"`
	Amount          int64  `dynamodbav:"amount" dynamo:"amount"`
	Currency        string `dynamodbav:"currency" dynamo:"currency"`
	PaymentMethodID string `dynamodbav:"paymentMethodId" dynamo:"paymentMethodId"`
	PurchasedAt     string `dynamodbav:"purchasedAt" dynamo:"purchasedAt"`
}

// purchaseGuardRow is kondate's guard of a purchase's transaction ID.
type purchaseGuardRow struct {
	PK         string `dynamodbav:"PK" dynamo:"PK"`
	SK         string `dynamodbav:"SK" dynamo:"SK"`
	PurchaseSK string `dynamodbav:"purchaseSk" dynamo:"purchaseSk"`
}

type subscriptionRow struct {
	PK               string `dynamodbav:"PK" dynamo:"PK"`
	SK               string `dynamodbav:"SK" dynamo:"SK"`
	Plan             string `dynamodbav:"plan" dynamo:"plan"`
	Status           string `dynamodbav:"status" dynamo:"status"`
	CurrentPeriodEnd string `dynamodbav:"currentPeriodEnd,omitempty" dynamo:"currentPeriodEnd,omitempty"`
	UpdatedAt        string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type notificationRow struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	Kind      string `dynamodbav:"kind" dynamo:"kind"`
	Title     string `dynamodbav:"title" dynamo:"title"`
	Body      string `dynamodbav:"body" dynamo:"body"`
	CreatedAt string `dynamodbav:"createdAt" dynamo:"createdAt"`
	ReadAt    string `dynamodbav:"readAt,omitempty" dynamo:"readAt,omitempty"`
}

type notificationSettingsRow struct {
	PK           string `dynamodbav:"PK" dynamo:"PK"`
	SK           string `dynamodbav:"SK" dynamo:"SK"`
	PushEnabled  bool   `dynamodbav:"pushEnabled" dynamo:"pushEnabled"`
	EmailEnabled bool   `dynamodbav:"emailEnabled" dynamo:"emailEnabled"`
	UpdatedAt    string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type pushTokenRow struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	Platform  string `dynamodbav:"platform" dynamo:"platform"`
	Token     string `dynamodbav:"token" dynamo:"token"`
	CreatedAt string `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type profileRow struct {
	PK          string `dynamodbav:"PK" dynamo:"PK"`
	SK          string `dynamodbav:"SK" dynamo:"SK"`
	DisplayName string `dynamodbav:"displayName" dynamo:"displayName"`
	AvatarURL   string `dynamodbav:"avatarUrl" dynamo:"avatarUrl"`
	CreatedAt   string `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt   string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

// catalogRow is either item of a catalog entry: the catalog item or the
// creator's copy.
type catalogRow struct {
	PK          string          `dynamodbav:"PK" dynamo:"PK"`
	SK          string          `dynamodbav:"SK" dynamo:"SK"`
	GSI1PK      string          `dynamodbav:"GSI1PK,omitempty" dynamo:"GSI1PK,omitempty"`
	GSI1SK      string          `dynamodbav:"GSI1SK,omitempty" dynamo:"GSI1SK,omitempty"`
	GSI2PK      string          `dynamodbav:"GSI2PK" dynamo:"GSI2PK"`
	GSI2SK      string          `dynamodbav:"GSI2SK" dynamo:"GSI2SK"`
	GSI3PK      string          `dynamodbav:"GSI3PK,omitempty" dynamo:"GSI3PK,omitempty"`
	GSI3SK      string          `dynamodbav:"GSI3SK,omitempty" dynamo:"GSI3SK,omitempty"`
	EntityType  string          `dynamodbav:"entityType" dynamo:"entityType"`
	CreatorID   string          `dynamodbav:"creatorId" dynamo:"creatorId"`
	Title       string          `dynamodbav:"title" dynamo:"title"`
	Tags        []string        `dynamodbav:"tags" dynamo:"tags"`
	Ingredients []ingredientRow `dynamodbav:"ingredients,omitempty" dynamo:"ingredients,omitempty"`
	Steps       []string        `dynamodbav:"steps,omitempty" dynamo:"steps,omitempty"`
	Origin      string          `dynamodbav:"origin,omitempty" dynamo:"origin,omitempty"`
	Items       []setItemRow    `dynamodbav:"items,omitempty" dynamo:"items,omitempty"`
	SavedCount  int64           `dynamodbav:"savedCount" dynamo:"savedCount"`
	CreatedAt   string          `dynamodbav:"createdAt" dynamo:"createdAt"`
}

type savedRow struct {
	PK         string `dynamodbav:"PK" dynamo:"PK"`
	SK         string `dynamodbav:"SK" dynamo:"SK"`
	GSI1PK     string `dynamodbav:"GSI1PK" dynamo:"GSI1PK"`
	GSI1SK     string `dynamodbav:"GSI1SK" dynamo:"GSI1SK"`
	EntityType string `dynamodbav:"entityType" dynamo:"entityType"`
	CreatorID  string `dynamodbav:"creatorId" dynamo:"creatorId"`
	Title      string `dynamodbav:"title" dynamo:"title"`
	SavedAt    string `dynamodbav:"savedAt" dynamo:"savedAt"`
}

type shareRow struct {
	PK         string `dynamodbav:"PK" dynamo:"PK"`
	SK         string `dynamodbav:"SK" dynamo:"SK"`
	TargetType string `dynamodbav:"targetType" dynamo:"targetType"`
	TargetID   string `dynamodbav:"targetId" dynamo:"targetId"`
	AuthorName string `dynamodbav:"authorName" dynamo:"authorName"`
	SourceURL  string `dynamodbav:"sourceUrl" dynamo:"sourceUrl"`
	CreatedBy  string `dynamodbav:"createdBy" dynamo:"createdBy"`
	CreatedAt  string `dynamodbav:"createdAt" dynamo:"createdAt"`
}

// The fixtures' values: the seed's user u_01 and its items.
const (
	userID  = "u_01"
	userPK  = "USER#u_01"
	created = "2026-02-09T10:00:00.000Z"
	updated = "2026-02-10T08:30:00.000Z"
)

var createdAt = time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)

// id is the i-th fixture ID, a ULID-shaped string.
func id(i int) string { return fmt.Sprintf("01JKQ8V6Y3N8Z0A5M2C4%06d", i) }

var mapoIngredients = []ingredientRow{{"豆腐", "1丁"}, {"豚ひき肉", "150g"}, {"長ねぎ", "1/2本"}, {"豆板醤", "小さじ1"}, {"鶏がらスープ", "150ml"}}

var mapoSteps = []string{"豆腐をさいの目に切り、下茹でする", "ひき肉を炒め、豆板醤を加える", "スープを加えて豆腐を煮る", "水溶き片栗粉でとろみをつける"}

func recipe(i int) recipeRow {
	return recipeRow{PK: userPK, SK: "RECIPE#" + id(i), GSI1PK: "ENTITY#RECIPE#" + id(i), GSI1SK: "OWNER#" + userID,
		Title: "麻婆豆腐", Ingredients: mapoIngredients, Steps: mapoSteps, Tags: []string{"中華", "夕食"},
		Origin: "manual", CreatedAt: created, UpdatedAt: updated}
}

var weekItems = []setItemRow{{id(1), "麻婆豆腐"}, {id(2), "肉じゃが"}, {id(3), "鮭の塩焼き"}, {"", "味噌汁"}, {"", "ほうれん草のおひたし"}}

func set(i int) setRow {
	return setRow{PK: userPK, SK: "SET#" + id(i), GSI1PK: "ENTITY#SET#" + id(i), GSI1SK: "OWNER#" + userID,
		Title: "平日の献立", Items: weekItems, Tags: []string{"定番"}, CreatedAt: created, UpdatedAt: updated}
}

func plan(slot string) planRow {
	return planRow{PK: userPK, SK: "PLAN#" + slot, SetID: id(0), SetTitle: "平日の献立", AppliedAt: created,
		Items: weekItems, UpdatedAt: updated}
}

func shopping(i int) shoppingRow {
	return shoppingRow{PK: userPK, SK: "SHOPPING#" + id(i), Name: "木綿豆腐", Quantity: "2丁", CreatedAt: created, UpdatedAt: updated}
}

func fridge(i int) fridgeRow {
	return fridgeRow{PK: userPK, SK: "FRIDGE#" + id(i), Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12",
		CreatedAt: created, UpdatedAt: updated}
}

func deletedFridge(i int) fridgeRow {
	f := fridge(i)
	f.SK = "FRIDGE_DELETED#" + updated + "#" + id(i)
	f.DeletedAt, f.TTL = updated, createdAt.Add(30*24*time.Hour).Unix()
	return f
}

func category(i int) categoryRow {
	return categoryRow{PK: userPK, SK: "CATEGORY#book#" + id(i), Name: "作り置き", CreatedAt: created, UpdatedAt: updated}
}

func cookLog(i int) cookLogRow {
	return cookLogRow{PK: userPK, SK: fmt.Sprintf("COOKLOG#2026-02-%02d#%s", i%28+1, id(i)), RecipeID: id(1),
		Title: "麻婆豆腐", Note: "辛さ控えめにした", CreatedAt: created}
}

func paymentMethod(i int) paymentMethodRow {
	return paymentMethodRow{PK: userPK, SK: "PAYMENT_METHOD#" + id(i), Provider: "stripe", ProviderRef: "pm_1OqXyZ2eZvKYlo2C",
		Brand: "visa", Last4: "4242", CreatedAt: created}
}

func purchase(i int) purchaseRow {
	return purchaseRow{PK: userPK, SK: "PURCHASE#" + created + "#" + id(i), ProductID: "premium_monthly", Amount: 480,
		Currency: "JPY", PaymentMethodID: id(1), PurchasedAt: created}
}

func notification(i int) notificationRow {
	return notificationRow{PK: userPK, SK: "NOTIFICATION#" + created + "#" + id(i), Kind: "reminder",
		Title: "今日の献立", Body: "麻婆豆腐の材料を確認しましょう", CreatedAt: created}
}

// pushTokenSK is the token's key: its SHA-256 in hex (sha256("ExponentPushToken[xxxx]")).
func pushToken(i int) pushTokenRow {
	return pushTokenRow{PK: userPK, SK: fmt.Sprintf("PUSH_TOKEN#ios#%064d", i), Platform: "ios",
		Token: "ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]", CreatedAt: created, UpdatedAt: updated}
}

func catalogEntry(i int) catalogRow {
	r := recipe(i)
	return catalogRow{PK: "CATALOG#RECIPE", SK: "CREATED#" + created + "#" + id(i),
		GSI1PK: "ENTITY#RECIPE#" + id(i), GSI1SK: "PUBLIC#", GSI2PK: "CATALOG#RECIPE", GSI2SK: "SORT#NEWEST#" + created + "#" + id(i),
		EntityType: "RECIPE", CreatorID: userID, Title: r.Title, Tags: r.Tags, Ingredients: r.Ingredients, Steps: r.Steps,
		Origin: r.Origin, SavedCount: 12, CreatedAt: created}
}

func catalogCopy(i int) catalogRow {
	c := catalogEntry(i)
	c.PK, c.SK = "CREATOR#"+userID, "CATALOG_RECIPE#"+created+"#"+id(i)
	c.GSI1PK, c.GSI1SK = "", ""
	c.GSI2SK = fmt.Sprintf("SORT#POPULAR#%010d#%s", c.SavedCount, id(i))
	c.GSI3PK, c.GSI3SK = "CREATOR#"+userID+"#RECIPE", "CREATED#"+created+"#"+id(i)
	return c
}

func saved(i int) savedRow {
	return savedRow{PK: userPK, SK: "SAVED#RECIPE#" + id(i), GSI1PK: "ENTITY#RECIPE#" + id(i), GSI1SK: "SAVED#" + userID,
		EntityType: "RECIPE", CreatorID: "u_02", Title: "麻婆豆腐", SavedAt: created}
}

func share(i int) shareRow {
	return shareRow{PK: "SHARE#" + shareID(i), SK: "META#", TargetType: "RECIPE", TargetID: id(1),
		AuthorName: "山田花子", SourceURL: "https://example.com/recipes/mapo", CreatedBy: userID, CreatedAt: created}
}

func shareID(i int) string { return fmt.Sprintf("k3m9q2x7v4b8n6c1z5w0r%05d", i) }

// avJSON renders a row as DynamoDB's JSON.
func avJSON(row any) string {
	av, err := attributevalue.MarshalMap(row)
	if err != nil {
		panic(err)
	}
	return bench.ItemJSON(av)
}

// item renders a row as an item, for the stub and for conditions.
func item(row any) map[string]types.AttributeValue {
	av, err := attributevalue.MarshalMap(row)
	if err != nil {
		panic(err)
	}
	return av
}
