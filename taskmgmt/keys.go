package taskmgmt

import (
	"strconv"
	"strings"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The seed's key segments. Every ID is validated (valid.ID: no '#', at
// most MaxIDLen characters, so at most 512 bytes) before a key is built,
// which is what lets the builders below join segments without failing.
const (
	segUser    = "USER"
	segTeam    = "TEAM"
	segTag     = "TAG"
	segTask    = "TASK"
	segCounter = "COUNTER"
	segStatus  = "Status"
	segStart   = "START"
	segEnd     = "END"
	counterAll = "ALL"
)

// itemKey is the primary key of one item.
type itemKey struct{ pk, sk string }

func join(segs ...string) string { return strings.Join(segs, keys.Sep) }

func userPK(userID string) string { return join(segUser, userID) }
func teamPK(teamID string) string { return join(segTeam, teamID) }

func userKey(userID string) itemKey { return itemKey{userPK(userID), userPK(userID)} }
func teamKey(teamID string) itemKey { return itemKey{teamPK(teamID), teamPK(teamID)} }

// userTeamKey is a user's membership, USER#u / TEAM#t; teamUserKey the
// team's, TEAM#t / USER#u.
func userTeamKey(userID, teamID string) itemKey { return itemKey{userPK(userID), teamPK(teamID)} }
func teamUserKey(teamID, userID string) itemKey { return itemKey{teamPK(teamID), userPK(userID)} }

func tagKey(teamID, tagID string) itemKey   { return itemKey{teamPK(teamID), tagRef(tagID)} }
func taskKey(teamID, taskID string) itemKey { return itemKey{teamPK(teamID), join(segTask, taskID)} }

// counterKey is COUNTER#ALL for day "", else COUNTER#<YYYY-MM-DD>.
func counterKey(teamID string, day Date) itemKey {
	if day == "" {
		return itemKey{teamPK(teamID), join(segCounter, counterAll)}
	}
	return itemKey{teamPK(teamID), join(segCounter, string(day))}
}

// counterShardKey is shard shard of counterKey(teamID, day): shard 0 is
// the seed's item itself, shard n > 0 the same sort key followed by #<n>
// (Options.CounterShards).
func counterShardKey(teamID string, day Date, shard int) itemKey {
	k := counterKey(teamID, day)
	if shard > 0 {
		k.sk = join(k.sk, strconv.Itoa(shard))
	}
	return k
}

// counterSK parses a counter's sort key: COUNTER#ALL or COUNTER#<date>,
// then #<shard> for a shard other than 0 (counterShardKey). day is "" for
// COUNTER#ALL; ok is false for a sort key of another shape (the date is
// checked by the caller).
func counterSK(sk string) (day Date, shard int, ok bool) {
	rest, ok := strings.CutPrefix(sk, segCounter+keys.Sep)
	if !ok || rest == "" {
		return "", 0, false
	}
	d, n, sharded := strings.Cut(rest, keys.Sep)
	if sharded {
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 || strconv.Itoa(i) != n {
			return "", 0, false
		}
		shard = i
	}
	if d == counterAll {
		return "", shard, true
	}
	return Date(d), shard, d != ""
}

// counterShard is the shard of the counters a task's writes update, of n
// (n < 2: the one counter). It depends on the task ID alone, so that a
// retried write updates the same items.
func counterShard(taskID string, n int) int {
	return keys.Shard(taskID, n)
}

// counterAllQuery reads every shard of COUNTER#ALL (sharded counters).
func counterAllQuery(t ddb.Table, teamID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), Sort: ddb.SortBeginsWith(join(segCounter, counterAll)), ConsistentRead: true}
}

// tagRef is a task's reference to a tag in team_task_tagRef: TAG#<tagId>,
// which is also the tag's sort key.
func tagRef(tagID string) string { return join(segTag, tagID) }

// groups are the status_group1..3 values of a task: its status's group in
// each of the seed's three groupings. The seed's examples write
// TEAM#t{teamId}; the stray 't' is a typo, and the keys are
// TEAM#<teamId>#Status#<group>.
func groups(teamID string, s Status) [3]string {
	var g [3]string
	switch s {
	case StatusTodo:
		g = [3]string{"todo", "todo_doing", "todo_done"}
	case StatusDoing:
		g = [3]string{"doing_done", "todo_doing", "doing"}
	case StatusDone:
		g = [3]string{"doing_done", "done", "todo_done"}
	}
	for i := range g {
		g[i] = groupPK(teamID, g[i])
	}
	return g
}

func groupPK(teamID, group string) string { return join(segTeam, teamID, segStatus, group) }

func startSK(d Date) string { return dateSK(segStart, d) }
func endSK(d Date) string   { return dateSK(segEnd, d) }

// dateSK is "<seg>#<d>", or "" (no sort key: the task is in none of the
// views sorted by it) for a task without the date.
func dateSK(seg string, d Date) string {
	if d == "" {
		return ""
	}
	return join(seg, string(d))
}

// idFrom returns the ID in key "<seg>#<id>", or false when key has
// another shape.
func idFrom(key, seg string) (string, bool) {
	id, ok := strings.CutPrefix(key, seg+keys.Sep)
	return id, ok && id != "" && !strings.Contains(id, keys.Sep)
}

// The listings: each is a KeyQuery that both stores run, so they share
// order, page boundaries and cursors.

func membersQuery(t ddb.Table, teamID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), Sort: ddb.SortBeginsWith(segUser + keys.Sep), ConsistentRead: true}
}

func userTeamsQuery(t ddb.Table, userID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: userPK(userID), Sort: ddb.SortBeginsWith(segTeam + keys.Sep), ConsistentRead: true}
}

func tagsQuery(t ddb.Table, teamID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), Sort: ddb.SortBeginsWith(segTag + keys.Sep), ConsistentRead: true}
}

func tasksQuery(t ddb.Table, teamID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), Sort: ddb.SortBeginsWith(segTask + keys.Sep), ConsistentRead: true}
}

// teamItemsQuery is the whole team partition, for DeleteTeam.
func teamItemsQuery(t ddb.Table, teamID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), ConsistentRead: true}
}

// invertQuery finds a team's user_team items through GSI_Invert
// (SK = TEAM#t, PK begins with USER#).
func invertQuery(t ddb.Table, sk, pkPrefix string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, Index: indexInvert, PartitionValue: sk, Sort: ddb.SortBeginsWith(pkPrefix + keys.Sep)}
}

// dailyQuery lists COUNTER#<date> items between from and to.
// dailyQuery lists the daily counters of q's dates; sharded, up to the
// last shard of the last date (COUNTER#<to>#<n> sorts after COUNTER#<to>
// and before the next date).
func dailyQuery(t ddb.Table, teamID string, q DailyQuery, sharded bool) ddb.KeyQuery {
	prefix := segCounter + keys.Sep
	from, to := Date("0000-01-01"), Date("9999-12-31")
	if q.From != "" {
		from = q.From
	}
	if q.To != "" {
		to = q.To
	}
	// COUNTER#ALL sorts after every date: the range ends at a date.
	upper := prefix + string(to)
	if sharded {
		upper += keys.Sep + "~" // after every shard number
	}
	sort := ddb.SortBetween(prefix+string(from), upper)
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), Sort: sort, Descending: q.Descending, ConsistentRead: true}
}
