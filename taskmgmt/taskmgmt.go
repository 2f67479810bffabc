package taskmgmt

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/calendar"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/valid"
	"github.com/ddbkit/ddbkit/keys"
)

// Date is a calendar date as the seed stores it: "YYYY-MM-DD". The valid
// dates run from MinDate to MaxDate. The zero Date is no date: an open end
// of a DailyQuery, or a task's missing date in another writer's item. Its
// methods are wardrobe.Date's, in this package's format.
type Date string

// The range of dates: the years 0001 to 9999, which YYYY-MM-DD can write
// and every reader of the table can parse back.
const (
	MinDate Date = "0001-01-01"
	MaxDate Date = "9999-12-31"
)

// DateOf returns t's calendar date in t's own location: convert t to the
// zone whose day you mean first.
func DateOf(t time.Time) Date { return Date(keys.DateISO(t)) }

// Valid reports whether d is a real date written as YYYY-MM-DD, from
// MinDate to MaxDate; Time says what is wrong with one that is not.
func (d Date) Valid() bool {
	_, err := d.Time()
	return err == nil
}

// Time returns midnight UTC of d, or an error (a *ddbkit.ValidationError)
// if d is not a valid date.
func (d Date) Time() (time.Time, error) { return d.In(time.UTC) }

// In returns midnight of d in loc (UTC when nil), or an error (a
// *ddbkit.ValidationError) if d is not a valid date. In a zone whose
// clocks skip midnight that day, it is the first instant of the day.
func (d Date) In(loc *time.Location) (time.Time, error) { return calendar.ISO.In(string(d), loc) }

// AddDays returns the date n days after d (before it when n is negative).
// If d is not a valid date, or the result is outside MinDate..MaxDate, it
// returns d itself, unchanged, and a *ddbkit.ValidationError (matching
// ddbkit.ErrInvalidArgument): a bad date never turns into the zero Date,
// which a DailyQuery reads as an open end.
func (d Date) AddDays(n int) (Date, error) {
	out, err := calendar.ISO.AddDays(string(d), n)
	return Date(out), err
}

// wellFormed reports whether d parses as YYYY-MM-DD, whatever its year:
// reads take any date another writer stored (Valid would refuse the year
// 0000).
func (d Date) wellFormed() bool {
	_, err := keys.ParseDateISO(string(d))
	return err == nil
}

// User is one user, identified by the caller's ID for them (the subject of
// the authentication), never generated.
type User struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	Image     string `json:"image,omitempty"` // a URL, or ""
	CreatedAt Date   `json:"createdAt"`
}

// Role is a member's role in a team.
type Role string

// The seed's two roles.
const (
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// Valid reports whether r is one of the seed's roles.
func (r Role) Valid() bool { return r == RoleAdmin || r == RoleMember }

// Team is one team.
type Team struct {
	ID          string `json:"id"` // UUIDv7, assigned by the store
	Name        string `json:"name"`
	Description string `json:"description"` // stored as team_discription, the seed's spelling
}

// Member is one member of a team, as the team lists them (the team_user
// item): the user's name is a copy of the user's.
type Member struct {
	TeamID   string `json:"teamId"`
	UserID   string `json:"userId"`
	UserName string `json:"userName"`
	Role     Role   `json:"role"`
	JoinedAt Date   `json:"joinedAt"`
}

// Membership is one team of a user, as the user lists them (the user_team
// item): the team's name is a copy of the team's.
type Membership struct {
	UserID   string `json:"userId"`
	TeamID   string `json:"teamId"`
	TeamName string `json:"teamName"`
	Role     Role   `json:"role"`
	JoinedAt Date   `json:"joinedAt"`
}

// Color is a tag's colors, stored as the Map team_tag_color.
type Color struct {
	Color           string `json:"color"`
	BackgroundColor string `json:"backgroundColor"`
}

// Tag is one tag of a team.
type Tag struct {
	ID     string `json:"id"` // UUIDv7, assigned by the store
	TeamID string `json:"teamId"`
	Name   string `json:"name"`
	Color  Color  `json:"color"`
}

// Status is a task's status.
type Status string

// The seed's three statuses.
const (
	StatusTodo  Status = "todo"
	StatusDoing Status = "doing"
	StatusDone  Status = "done"
)

// Statuses lists the statuses in board order.
var Statuses = []Status{StatusTodo, StatusDoing, StatusDone}

// Valid reports whether s is one of the seed's statuses.
func (s Status) Valid() bool { return s == StatusTodo || s == StatusDoing || s == StatusDone }

// Task is one task of a team.
type Task struct {
	ID          string `json:"id"` // UUIDv7, assigned by the store
	TeamID      string `json:"teamId"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"` // stored as team_task_discription, the seed's spelling
	Status      Status `json:"status"`
	// Start and End are required of a task ddbkit creates. Another
	// writer's task may lack one or both ("" here): the item then lacks
	// that date's attributes, its sort key (start_sort_sk, end_sort_sk)
	// included, and keeps them absent through UpdateTask, so it is in no
	// board sorted by the missing date (every board sorts by one),
	// overdue ones included.
	Start  Date     `json:"startTime,omitempty"`
	End    Date     `json:"endTime,omitempty"`
	TagIDs []string `json:"tagIds,omitempty"` // in ID order; nil when the task has no tag
}

// Counts holds one number per status.
type Counts struct {
	Todo  int `json:"todo"`
	Doing int `json:"doing"`
	Done  int `json:"done"`
}

// Get returns the count of s.
func (c Counts) Get(s Status) int {
	switch s {
	case StatusTodo:
		return c.Todo
	case StatusDoing:
		return c.Doing
	case StatusDone:
		return c.Done
	}
	return 0
}

// add returns c with n added to the count of s.
func (c Counts) add(s Status, n int) Counts {
	switch s {
	case StatusTodo:
		c.Todo += n
	case StatusDoing:
		c.Doing += n
	case StatusDone:
		c.Done += n
	}
	return c
}

// DailyCount is one day's counter: the transitions into each status on
// Date, creations included.
type DailyCount struct {
	Date Date `json:"date"`
	Counts
	ExpiresAt time.Time `json:"expiresAt"` // when DynamoDB's TTL may delete it
}

// CounterReport is what RecalculateCounters found and wrote. It repairs
// one counter, so it keeps its own Was, Counts and Drift where
// ddbkit.RepairReport has Drifts, and carries RepairReport's Checked and
// Skipped.
type CounterReport struct {
	Was    Counts `json:"was"`    // COUNTER#ALL as read
	Counts Counts `json:"counts"` // the tasks counted by status, now in COUNTER#ALL
	Drift  bool   `json:"drift"`  // Was differed from Counts
	// Checked is the number of items the repair read and decoded: the
	// team's tasks it counted.
	Checked int `json:"checked"`
	// Skipped holds one error per item the repair could not decode, each
	// matching ErrCorruptItem and naming the item's key. Such an item is
	// neither checked nor repaired: a task there is left uncounted, so
	// Counts falls short of the team's tasks by len(Skipped). Errors do
	// not marshal to JSON: a handler reports their texts itself.
	Skipped []error `json:"-"`
}

// NewUser is the input of CreateUser.
type NewUser struct {
	ID    string // the caller's ID for the user, such as the auth subject
	Email string // a plain address, as Invite takes (see "Email addresses" in the package doc)
	Name  string
	Image string // optional
}

// NewTeam is the input of CreateTeam.
type NewTeam struct {
	Name        string
	Description string // optional
}

// TeamPatch changes the fields that are not nil.
type TeamPatch struct {
	Name        *string
	Description *string
}

// NewTag is the input of CreateTag.
type NewTag struct {
	Name  string
	Color Color
}

// NewTask is the input of CreateTask.
type NewTask struct {
	Title       string
	Description string // optional
	Status      Status // zero means StatusTodo
	Start, End  Date   // both required; End not before Start
	TagIDs      []string
}

// TaskPatch changes the fields that are not nil. A non-nil, empty TagIDs
// removes every tag.
type TaskPatch struct {
	Title       *string
	Description *string
	Status      *Status
	Start, End  *Date
	TagIDs      *[]string
}

// View names one of the seed's board views (access patterns 7 to 15): a
// shorthand for the BoardQuery that spells it out, served by the same
// index, with the same results and cursors.
type View string

// The board views. Overdue views compare with today, from the store's
// clock in Options.Location.
const (
	// ViewInitial: TODO and DOING by start date (AP 7, GSI_Status_Start_Sort_Group2).
	ViewInitial View = "initial"
	// ViewTodo: TODO by start date (AP 8-10, GSI_Status_Start_Sort_Group1).
	ViewTodo View = "todo"
	// ViewAll: every status by start date (AP 11, GSI_Status_Start_Sort_All).
	ViewAll View = "all"
	// ViewStartOverdue: TODO whose start date is before today (AP 12-13,
	// GSI_Status_Start_Sort_Group1).
	ViewStartOverdue View = "start-overdue"
	// ViewEndOverdue: TODO and DOING whose end date is before today, by end
	// date (AP 14-15, GSI_Status_End_Sort_Group2).
	ViewEndOverdue View = "end-overdue"
)

// Valid reports whether v is one of the board views.
func (v View) Valid() bool {
	_, ok := views[v]
	return ok
}

// Sort is the date a board is sorted by, ascending.
type Sort string

// The seed's two sort keys. The zero Sort means SortStart.
const (
	SortStart Sort = "start" // by start date (start_sort_sk, START#<date>)
	SortEnd   Sort = "end"   // by end date (end_sort_sk, END#<date>)
)

// TagMatch says how a board's tag filter combines several tags.
type TagMatch string

// The two ways to combine tags. The zero TagMatch means MatchAny.
const (
	MatchAny TagMatch = "any" // a task with at least one of the tags
	MatchAll TagMatch = "all" // a task with every one of the tags
)

// BoardQuery selects and pages a board: either a named View, or the
// board spelled out by Statuses, Sort and Overdue (any of the seven sets
// of statuses the seed's status groups exist for, by either date), not
// both. Either way, TagIDs and Match filter it.
type BoardQuery struct {
	View View // a named board; when set, Statuses, Sort and Overdue must be zero
	// Statuses is the set of statuses the board shows, in any order: one,
	// two or all three, each once. Required unless View is set.
	Statuses []Status
	Sort     Sort // the date the board is sorted by; zero means SortStart
	// Overdue keeps only the tasks whose date of Sort is before today, as
	// the store's clock reads it in Options.Location.
	Overdue bool
	TagIDs  []string // optional filter: at most MaxTagsPerTask tags
	Match   TagMatch // how TagIDs combine; zero means MatchAny
	ddbkit.PageOptions
}

// DailyQuery selects and pages a team's daily counters: the days From to
// To, both included; a zero From or To leaves that end open. A From or To
// that is not a valid Date (see Date.Valid) is ErrInvalidArgument naming
// the field, never an open end.
type DailyQuery struct {
	From, To   Date
	Descending bool
	ddbkit.PageOptions
}

// UserStore stores users (access pattern 1).
type UserStore interface {
	// CreateUser stores a new user, created today. Only this call's own
	// earlier write (a retry after a lost answer, or a repeat under the
	// same idempotency key, which returns the first call's user, see the
	// package doc) counts as success on an existing user; a user already
	// there, even identical, is ErrAlreadyExists. It returns
	// ErrInvalidArgument (naming the field; Email when it is not an
	// address Invite takes, see "Email addresses" in the package doc),
	// ErrAlreadyExists if the ID is taken, ErrConflict
	// (ErrIdempotencyKeyReused: an idempotency key reused for other
	// input) or ErrUnavailable.
	CreateUser(ctx context.Context, in NewUser) (User, error)
	// GetUser returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem or
	// ErrUnavailable.
	GetUser(ctx context.Context, userID string) (User, error)
	// RenameUser changes a user's name, and the copy of it on each of the
	// user's team_user items, in transactions of at most 100 items. If it
	// fails midway, repeating it finishes the copies. It returns
	// ErrInvalidArgument, ErrNotFound, ErrConflict (the memberships kept
	// changing) or ErrUnavailable.
	RenameUser(ctx context.Context, userID, name string) (User, error)
}

// TeamStore stores teams and their members (access patterns 2 to 4).
type TeamStore interface {
	// CreateTeam stores a new team with creator as its admin (the team,
	// user_team and team_user items, in one transaction). It returns
	// ErrInvalidArgument, ErrNotFound if the creator is no user,
	// ErrConflict if the creator changed meanwhile, or ErrUnavailable.
	CreateTeam(ctx context.Context, creatorID string, in NewTeam) (Team, error)
	// GetTeam returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem or
	// ErrUnavailable.
	GetTeam(ctx context.Context, teamID string) (Team, error)
	// UpdateTeam has actorID, an admin of the team, apply patch: the
	// admin check and the update are one transaction. A new name is
	// copied to every member's
	// user_team item (found through GSI_Invert), in transactions of at
	// most 100 items; if it fails midway, repeating it finishes the
	// copies. It returns ErrInvalidArgument (an empty patch included),
	// ErrNotFound, ErrPermissionDenied (matching ErrNotAdmin too: actorID
	// is no admin of the team; nothing was written), ErrConflict,
	// ErrCorruptItem or ErrUnavailable.
	UpdateTeam(ctx context.Context, teamID, actorID string, patch TeamPatch) (Team, error)
	// DeleteTeam has actorID, an admin of the team, delete the team,
	// everything in its partition (members, tags, tasks, counters) and
	// its members' user_team items. It is not atomic: if it fails midway,
	// repeating it finishes. Its first write is a transaction with the
	// admin check, and the actor's team_user item is deleted last, so a
	// repeat checks the role again on it: a member, or a former admin,
	// deletes nothing, whatever an earlier call left. It returns
	// ErrInvalidArgument, ErrNotFound when there is nothing left to
	// delete, ErrPermissionDenied (matching ErrNotAdmin too; nothing was
	// written), or ErrUnavailable.
	DeleteTeam(ctx context.Context, teamID, actorID string) error
	// ListMembers lists a team's members by user ID (AP 2). An unknown
	// team has none. Corrupt items are left out and reported in
	// Page.Skipped. It returns ErrInvalidArgument, ErrInvalidCursor or
	// ErrUnavailable.
	ListMembers(ctx context.Context, teamID string, opts ddbkit.PageOptions) (ddbkit.Page[Member], error)
	// GetMember returns userID's membership of the team as the team
	// lists it (the team_user item TEAM#<teamID>/USER#<userID>, its role
	// included): one consistent GetItem, so that a caller deciding what a
	// user may do reads the role as last written, without paging
	// ListMembers. It returns ErrInvalidArgument (naming TeamID or
	// UserID), ErrNotFound when the user is not a member (also of a team
	// that does not exist), ErrCorruptItem or ErrUnavailable.
	GetMember(ctx context.Context, teamID, userID string) (Member, error)
	// ListUserTeams lists a user's teams by team ID (AP 4), like
	// ListMembers.
	ListUserTeams(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[Membership], error)
	// AddMember has actorID, an admin of the team, make userID a member
	// with role, joined today; the admin check and the puts are one
	// transaction. No one adds themself (a user joins through an
	// invitation). It returns ErrInvalidArgument, ErrNotFound (no such
	// team or user), ErrPermissionDenied (matching ErrNotAdmin too;
	// nothing was written), ErrAlreadyExists if the user is a member,
	// ErrConflict or ErrUnavailable.
	AddMember(ctx context.Context, teamID, actorID, userID string, role Role) (Member, error)
	// SetRole has actorID, an admin of the team, change userID's role;
	// the admin check rides in the update's transaction (an admin
	// changing their own role: the update's condition on it). Demoting
	// the last admin fails with ErrConflict: a team always has an admin.
	// It returns ErrInvalidArgument, ErrNotFound (userID is not a member),
	// ErrPermissionDenied (matching ErrNotAdmin too: actorID is no admin,
	// a member asking for their own role included; nothing was written),
	// ErrConflict, ErrCorruptItem or ErrUnavailable.
	SetRole(ctx context.Context, teamID, actorID, userID string, role Role) (Member, error)
	// RemoveMember has actorID remove userID from the team (both items):
	// an admin removes anyone, a member only themself (leaving the team),
	// checked in the delete's transaction. Removing the last admin fails
	// with ErrConflict. It returns ErrInvalidArgument, ErrNotFound
	// (userID is not a member), ErrPermissionDenied (matching ErrNotAdmin
	// too; nothing was written), ErrConflict or ErrUnavailable.
	RemoveMember(ctx context.Context, teamID, actorID, userID string) error
}

// TagStore stores a team's tags (access pattern 5).
type TagStore interface {
	// CreateTag stores a new tag. It returns ErrInvalidArgument,
	// ErrNotFound if the team does not exist, ErrAlreadyExists if the ID
	// generator repeated an ID, or ErrUnavailable.
	CreateTag(ctx context.Context, teamID string, in NewTag) (Tag, error)
	// ListTags lists a team's tags by ID (AP 5), like ListMembers.
	ListTags(ctx context.Context, teamID string, opts ddbkit.PageOptions) (ddbkit.Page[Tag], error)
	// DeleteTag has actorID, an admin of the team, delete a tag (the
	// admin check and the delete are one transaction), then removes it
	// from every task that refers to it, in transactions of at most 100
	// items. Deleting a tag that is already gone finishes removing its
	// references and succeeds, after the same check. It returns
	// ErrInvalidArgument, ErrPermissionDenied (matching ErrNotAdmin too;
	// nothing was written), ErrConflict or ErrUnavailable.
	DeleteTag(ctx context.Context, teamID, actorID, tagID string) error
}

// TaskStore stores a team's tasks and serves the board views (access
// patterns 6 to 15).
type TaskStore interface {
	// CreateTask stores a new task and counts it, in one transaction, in
	// COUNTER#ALL and today's counter. Its tags must be tags of the team
	// when it commits. It returns ErrInvalidArgument (naming the unknown
	// TagIDs entry), ErrNotFound if the team does not exist,
	// ErrAlreadyExists if the ID generator repeated an ID, ErrConflict or
	// ErrUnavailable.
	CreateTask(ctx context.Context, teamID string, in NewTask) (Task, error)
	// GetTask returns a task (AP 6). It returns ErrInvalidArgument,
	// ErrNotFound, ErrCorruptItem or ErrUnavailable.
	GetTask(ctx context.Context, teamID, taskID string) (Task, error)
	// UpdateTask applies patch in one transaction that writes the
	// attributes the patch sets (and the index keys derived from them),
	// and nothing else: a description another caller wrote meanwhile, or
	// a tag reference a DeleteTag took away, stays as they left it. The
	// write is conditional on the status it read, on both dates when the
	// patch sets one, and on the tag references when it sets them. A
	// status change moves the task between COUNTER#ALL's counts and counts
	// the transition in today's counter. A patch that changes nothing
	// writes nothing. It returns
	// ErrInvalidArgument (an empty patch, a bad field, an end before the
	// start, an unknown tag), ErrNotFound, ErrConflict (the task kept
	// changing under it), ErrCorruptItem or ErrUnavailable.
	UpdateTask(ctx context.Context, teamID, taskID string, patch TaskPatch) (Task, error)
	// DeleteTask deletes a task and uncounts it from COUNTER#ALL, in one
	// transaction. It returns ErrInvalidArgument, ErrNotFound,
	// ErrConflict, ErrCorruptItem or ErrUnavailable.
	DeleteTask(ctx context.Context, teamID, taskID string) error
	// ListBoard lists a board (AP 7 to 15): the tasks of the statuses
	// q.Statuses, sorted by q.Sort's date (tasks of one date in no
	// promised order, see the package doc), only those before today when
	// q.Overdue; or the seed's named board q.View, a shorthand for one of
	// them. Each of the seven sets of statuses, by either date, is one
	// Query per page of the status index whose group holds exactly that
	// set (see the package doc). A task without the board's date (only
	// another writer makes one) has no sort key in the index, so it is in
	// no board sorted by that date. Tag filters keep the tasks with any
	// (or all) of q.TagIDs: a filtered page evaluates at most
	// Options.FilterBudget tasks, so it may be short, or empty, with a
	// Next cursor; page on until Next is "". Its cursors work only for the
	// same board (the same statuses in any order, sort and day; a View and
	// the board it names share them) and filter. It returns
	// ErrInvalidArgument (naming the field: an unknown or repeated status,
	// no status and no View, an unknown Sort or View, a View with
	// Statuses, Sort or Overdue; also for a CursorSecret of 1 to 15
	// bytes), ErrInvalidCursor or ErrUnavailable.
	ListBoard(ctx context.Context, teamID string, q BoardQuery) (ddbkit.Page[Task], error)
}

// CounterStore reads and repairs a team's counters (access pattern 16).
type CounterStore interface {
	// GetCounts returns COUNTER#ALL: the tasks per status, zero for a team
	// without tasks. The seed lists expiresAt on COUNTER#ALL too, but a
	// running total must not expire: GetCounts reads the counts whatever
	// an expiresAt another writer set says (while the item is there, it is
	// the total), and every write of COUNTER#ALL (a task write's ADD,
	// RecalculateCounters, which rewrites it for that alone) removes
	// expiresAt, so that TTL cannot delete it and the next ADD restart it
	// from zero. One TTL deleted before ddbkit wrote it reads as zero
	// until RecalculateCounters recounts it. It returns
	// ErrInvalidArgument, ErrCorruptItem or ErrUnavailable.
	GetCounts(ctx context.Context, teamID string) (Counts, error)
	// ListDailyCounts lists a team's daily counters by date, leaving out
	// those past their expiresAt that TTL has not deleted yet. A page
	// evaluates at most Options.FilterBudget counters: it may be short,
	// or empty, with a Next cursor. It returns ErrInvalidArgument,
	// ErrInvalidCursor or ErrUnavailable.
	ListDailyCounts(ctx context.Context, teamID string, q DailyQuery) (ddbkit.Page[DailyCount], error)
	// RecalculateCounters counts the team's tasks by status and writes the
	// result to COUNTER#ALL, conditional on the counter it read first, so
	// that a concurrent task write makes it start over, and on the team
	// existing. A task it cannot decode is left uncounted and reported in
	// CounterReport.Skipped, never dropped without a word. It returns
	// ErrNotFound for a team that does not exist (or
	// was deleted), writing nothing; ErrInvalidArgument, ErrConflict (task
	// writes kept racing it), ErrCorruptItem or ErrUnavailable.
	RecalculateCounters(ctx context.Context, teamID string) (CounterReport, error)
}

// Store is every operation on the task table and the invitation table.
// Both DynamoStore and MemoryStore implement it. Every write method takes
// an idempotency key (ddbkit.WithIdempotencyKey): a repeat with the same
// key and input within 24 hours returns the first call's result (see
// "Idempotency keys" in the package doc, which says what, method by
// method), and the key with other input is ErrIdempotencyKeyReused.
type Store interface {
	UserStore
	TeamStore
	TagStore
	TaskStore
	CounterStore
	InvitationStore
}

// Limits of the fields, where the seed is silent.
const (
	MaxIDLen          = 128
	MaxNameLen        = 100  // user, team and tag names
	MaxEmailLen       = 254  // an email address's limit
	MaxImageLen       = 2048 // a URL
	MaxDescriptionLen = 2000 // team and task descriptions
	MaxTitleLen       = 200
	MaxColorLen       = 64
	MaxTagsPerTask    = 20
)

type validator struct{ valid.Validator }

func (v *validator) date(field string, d Date) {
	t, err := keys.ParseDateISO(string(d))
	if err != nil {
		v.Fail(field, "must be a date as YYYY-MM-DD, got %q", string(d))
		return
	}
	v.Time(field, t)
}

func (v *validator) status(field string, s Status) {
	if !s.Valid() {
		v.Fail(field, "must be todo, doing or done; got %q", string(s))
	}
}

// statuses checks a board's set of statuses: one to three, each known
// and named once.
func (v *validator) statuses(field string, ss []Status) {
	if len(ss) == 0 {
		v.Fail(field, "must hold at least one of todo, doing and done (or set View)")
		return
	}
	for i, st := range ss {
		f := field + "[" + strconv.Itoa(i) + "]"
		v.status(f, st)
		if j := slices.Index(ss[:i], st); j >= 0 {
			v.Fail(f, "repeats %s[%d] (%q)", field, j, string(st))
		}
	}
}

func (v *validator) role(field string, r Role) {
	if !r.Valid() {
		v.Fail(field, "must be admin or member; got %q", string(r))
	}
}

// tagIDs checks a task's tags, each named by tagField.
func (v *validator) tagIDs(ids []string) {
	if len(ids) > MaxTagsPerTask {
		v.Fail("TagIDs", "must hold at most %d tags, got %d", MaxTagsPerTask, len(ids))
		return
	}
	for i, id := range ids {
		if !valid.IsID(id, MaxIDLen) {
			v.ID(tagField(i), id, MaxIDLen)
			return
		}
		// At most MaxTagsPerTask: comparing costs less than a map.
		if j := slices.Index(ids[:i], id); j >= 0 {
			v.Fail(tagField(i), "repeats %s (%q)", tagField(j), id)
			return
		}
	}
}

func (v *validator) dates(start, end Date) {
	v.date("Start", start)
	v.date("End", end)
	if v.Err == nil && end < start {
		v.Fail("End", "must not be before Start (%s), got %s", start, end)
	}
}

func (v *validator) color(c Color) {
	v.Line("Color.Color", c.Color, true, MaxColorLen)
	v.Line("Color.BackgroundColor", c.BackgroundColor, true, MaxColorLen)
}

func validateIDs(op string, fields ...string) error {
	var v validator
	for i := 0; i+1 < len(fields); i += 2 {
		v.ID(fields[i], fields[i+1], MaxIDLen)
	}
	return wrap(op, v.Err)
}

func validateNewUser(op string, in NewUser) error {
	var v validator
	v.ID("ID", in.ID, MaxIDLen)
	v.email("Email", in.Email)
	v.Line("Name", in.Name, true, MaxNameLen)
	v.URL("Image", in.Image, false, MaxImageLen)
	return wrap(op, v.Err)
}

func validateNewTeam(op, creatorID string, in NewTeam) error {
	var v validator
	v.ID("CreatorID", creatorID, MaxIDLen)
	v.Line("Name", in.Name, true, MaxNameLen)
	v.Text("Description", in.Description, false, MaxDescriptionLen)
	return wrap(op, v.Err)
}

func validateTeamPatch(op, teamID string, p TeamPatch) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	if p.Name == nil && p.Description == nil {
		v.Fail("patch", "changes nothing; set Name or Description")
	}
	if p.Name != nil {
		v.Line("Name", *p.Name, true, MaxNameLen)
	}
	if p.Description != nil {
		v.Text("Description", *p.Description, false, MaxDescriptionLen)
	}
	return wrap(op, v.Err)
}

func validateNewTag(op, teamID string, in NewTag) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	v.Line("Name", in.Name, true, MaxNameLen)
	v.color(in.Color)
	return wrap(op, v.Err)
}

func validateNewTask(op, teamID string, in NewTask) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	v.Line("Title", in.Title, true, MaxTitleLen)
	v.Text("Description", in.Description, false, MaxDescriptionLen)
	if in.Status != "" {
		v.status("Status", in.Status)
	}
	v.dates(in.Start, in.End)
	v.tagIDs(in.TagIDs)
	return wrap(op, v.Err)
}

func validateTaskPatch(op, teamID, taskID string, p TaskPatch) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	v.ID("TaskID", taskID, MaxIDLen)
	if p == (TaskPatch{}) {
		v.Fail("patch", "changes nothing; set at least one field")
	}
	if p.Title != nil {
		v.Line("Title", *p.Title, true, MaxTitleLen)
	}
	if p.Description != nil {
		v.Text("Description", *p.Description, false, MaxDescriptionLen)
	}
	if p.Status != nil {
		v.status("Status", *p.Status)
	}
	if p.Start != nil {
		v.date("Start", *p.Start)
	}
	if p.End != nil {
		v.date("End", *p.End)
	}
	if p.Start != nil && p.End != nil && v.Err == nil && *p.End < *p.Start {
		v.Fail("End", "must not be before Start (%s), got %s", *p.Start, *p.End)
	}
	if p.TagIDs != nil {
		v.tagIDs(*p.TagIDs)
	}
	return wrap(op, v.Err)
}

func validateBoard(op, teamID string, q BoardQuery) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	if q.View != "" {
		if !q.View.Valid() {
			v.Fail("View", "must be initial, todo, all, start-overdue or end-overdue; got %q", string(q.View))
		}
		// A view names its statuses, sort and day: an explicit one beside
		// it would be ignored, or contradict it.
		switch {
		case len(q.Statuses) > 0:
			v.Fail("Statuses", "must be empty when View is set; got %q and %v", string(q.View), q.Statuses)
		case q.Sort != "":
			v.Fail("Sort", "must be empty when View is set; got %q and %q", string(q.View), string(q.Sort))
		case q.Overdue:
			v.Fail("Overdue", "must be false when View is set; got %q", string(q.View))
		}
	} else {
		v.statuses("Statuses", q.Statuses)
		if q.Sort != "" && q.Sort != SortStart && q.Sort != SortEnd {
			v.Fail("Sort", "must be start or end; got %q", string(q.Sort))
		}
	}
	if q.Match != "" && q.Match != MatchAny && q.Match != MatchAll {
		v.Fail("Match", "must be any or all; got %q", string(q.Match))
	}
	v.tagIDs(q.TagIDs)
	if v.Err == nil {
		_, err := q.EffectiveLimit()
		v.Err = err
	}
	return wrap(op, v.Err)
}

func validateDaily(op, teamID string, q DailyQuery) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	if q.From != "" {
		v.date("From", q.From)
	}
	if q.To != "" {
		v.date("To", q.To)
	}
	if v.Err == nil && q.From != "" && q.To != "" && q.To < q.From {
		v.Fail("To", "must not be before From (%s), got %s", q.From, q.To)
	}
	if v.Err == nil {
		_, err := q.EffectiveLimit()
		v.Err = err
	}
	return wrap(op, v.Err)
}

func validateList(op, field, id string, o ddbkit.PageOptions) error {
	var v validator
	v.ID(field, id, MaxIDLen)
	if v.Err == nil {
		_, err := o.EffectiveLimit()
		v.Err = err
	}
	return wrap(op, v.Err)
}

// checkSize refuses an item over DynamoDB's 400 KB before any call, on
// both stores, naming field, the caller's largest field in it. The field
// limits keep every item ddbkit builds far below it (a task, the largest,
// stays under 10 KB); the check is the net should a limit grow.
func checkSize(op string, item ddb.Item, field string) error {
	return wrap(op, ddb.CheckItemSize(item, field, 0))
}

// sortedTags returns ids sorted and without duplicates, as a String Set
// reads back; nil for none.
func sortedTags(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// What both stores decide the same way.

func (o Options) newTask(teamID string, in NewTask) Task {
	st := in.Status
	if st == "" {
		st = StatusTodo
	}
	return Task{ID: o.NewID(), TeamID: teamID, Title: in.Title, Description: in.Description, Status: st,
		Start: in.Start, End: in.End, TagIDs: sortedTags(in.TagIDs)}
}

// patched returns t with p applied.
func (t Task) patched(p TaskPatch) Task {
	if p.Title != nil {
		t.Title = *p.Title
	}
	if p.Description != nil {
		t.Description = *p.Description
	}
	if p.Status != nil {
		t.Status = *p.Status
	}
	if p.Start != nil {
		t.Start = *p.Start
	}
	if p.End != nil {
		t.End = *p.End
	}
	if p.TagIDs != nil {
		t.TagIDs = sortedTags(*p.TagIDs)
	}
	return t
}

func (t Task) equal(u Task) bool {
	return t.ID == u.ID && t.TeamID == u.TeamID && t.Title == u.Title && t.Description == u.Description &&
		t.Status == u.Status && t.Start == u.Start && t.End == u.End && slices.Equal(t.TagIDs, u.TagIDs)
}

// checkPatched refuses a patched task whose dates are out of order, which
// only the read shows when the patch sets one date.
func checkPatched(t Task) error {
	if t.Start != "" && t.End != "" && t.End < t.Start {
		return ddbkit.Invalid("End", "must not be before Start (%s), got %s", t.Start, t.End)
	}
	return nil
}

// addedTags returns the indexes in patch of the tags that after has and
// before has not: the ones a write must check exist.
func addedTags(before, after []string, patch []string) []int {
	var idx []int
	for i, id := range patch {
		if slices.Contains(after, id) && !slices.Contains(before, id) {
			idx = append(idx, i)
		}
	}
	return idx
}

// delta is the counter changes of one task write.
type delta struct {
	all Counts // COUNTER#ALL
	day Counts // today's counter: transitions into each status
}

func createDelta(s Status) delta { return delta{all: Counts{}.add(s, 1), day: Counts{}.add(s, 1)} }

func moveDelta(from, to Status) delta {
	if from == to {
		return delta{}
	}
	return delta{all: Counts{}.add(from, -1).add(to, 1), day: Counts{}.add(to, 1)}
}

func deleteDelta(s Status) delta { return delta{all: Counts{}.add(s, -1)} }
