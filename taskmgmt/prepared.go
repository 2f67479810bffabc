package taskmgmt

import (
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The expressions of the writes, built once (ddb.Prepared) with their
// per-call values bound by position: building them per call with
// expression.Builder was most of a write's CPU (issue 15). Where a lenient
// condition changes shape with a value (a name copy or date read as "",
// which must still be "" or missing), both shapes are prepared.

func cond(c expression.ConditionBuilder) *ddb.Prepared {
	return ddb.MustPrepare(expression.NewBuilder().WithCondition(c))
}

func updCond(u expression.UpdateBuilder, c expression.ConditionBuilder) *ddb.Prepared {
	return ddb.MustPrepare(expression.NewBuilder().WithUpdate(u).WithCondition(c))
}

func updOnly(u expression.UpdateBuilder) *ddb.Prepared {
	return ddb.MustPrepare(expression.NewBuilder().WithUpdate(u))
}

// eqOrMissing is the condition that attribute name holds Param(i), or,
// when the value read was empty, that it holds "" or is missing, as a
// lenient read saw it (no parameter then).
func eqOrMissing(name expression.NameBuilder, i int, empty bool) expression.ConditionBuilder {
	if empty {
		return expression.Equal(name, expression.Value("")).Or(expression.AttributeNotExists(name))
	}
	return expression.Equal(name, ddb.Param(i))
}

var (
	pExists    = cond(exists)
	pNotExists = cond(notExists)
	pIsAdmin   = cond(isAdmin)
	// pExistsNamed[empty]: the item exists and attribute holds Param(0)
	// (or is "" or missing, for empty), for the user and team checks.
	pUserNamed = [2]*ddb.Prepared{cond(exists.And(eqOrMissing(nUserName, 0, false))), cond(exists.And(eqOrMissing(nUserName, 0, true)))}
	pTeamNamed = [2]*ddb.Prepared{cond(exists.And(eqOrMissing(nTeamName, 0, false))), cond(exists.And(eqOrMissing(nTeamName, 0, true)))}
	// pRoleIs: user_team_role = Param(0).
	pRoleIs = cond(expression.Equal(nRole, ddb.Param(0)))
	// pSetRole: SET user_team_role = Param(0), if it is Param(1).
	pSetRole = updCond(expression.Set(nRole, ddb.Param(0)), expression.Equal(nRole, ddb.Param(1)))
	// pSetRoleExists: SET user_team_role = Param(0), if the item exists.
	pSetRoleExists = updCond(expression.Set(nRole, ddb.Param(0)), exists)
	// pSetUserName and pSetTeamName: SET the name to Param(0), if the item
	// exists (renames and their fan-outs).
	pSetUserName = updCond(expression.Set(nUserName, ddb.Param(0)), exists)
	pSetTeamName = updCond(expression.Set(nTeamName, ddb.Param(0)), exists)
	// pUpdateTeam[shape]: UpdateTeam's SET of the name (shape bit 1) and
	// the description (bit 2), in that order, if the team exists.
	pUpdateTeam = [4]*ddb.Prepared{nil,
		updCond(expression.Set(nTeamName, ddb.Param(0)), exists),
		updCond(expression.Set(nTeamDesc, ddb.Param(0)), exists),
		updCond(expression.Set(nTeamName, ddb.Param(0)).Set(nTeamDesc, ddb.Param(1)), exists)}
	// pTaskStatusIs: the task exists with status Param(0).
	pTaskStatusIs = cond(exists.And(expression.Equal(nStatus, ddb.Param(0))))
	// pCounterAll and pCounterDay add to a counter with ADD, which creates
	// the counter and its three counts (at 0) when missing: the counts are
	// Param(0..2); the day's counter also sets expiresAt, Param(3).
	pCounterAll = updOnly(counterShape(false))
	pCounterDay = updOnly(counterShape(true))
	// pTaskUpdate[tags][startEmpty][endEmpty]: UpdateTask's write of every
	// task attribute (team_task_tagRef removed when the task has no tags,
	// !tags), conditional on the task still having the status and dates
	// read, raw: the counters and index keys depend on them.
	pTaskUpdate = func() (p [2][2][2]*ddb.Prepared) {
		for tags := range 2 {
			for se := range 2 {
				for ee := range 2 {
					p[tags][se][ee] = taskUpdateShape(tags == 1, se == 1, ee == 1)
				}
			}
		}
		return p
	}()
)

func counterShape(day bool) expression.UpdateBuilder {
	upd := expression.Set(nType, expression.Value(typeCounter))
	for i, st := range Statuses {
		upd = upd.Add(expression.Name(string(st)), ddb.Param(i))
	}
	if day {
		upd = upd.Set(nExpiresAt, ddb.Param(len(Statuses)))
	}
	return upd
}

// taskSetAttrs are the task attributes UpdateTask sets, in the order of
// their parameters; team_task_tagRef comes last.
var taskSetAttrs = [...]string{attrTitle, attrTaskDesc, attrStatus, attrStartTime, attrEndTime,
	AttrStatusGroup1, AttrStatusGroup2, AttrStatusGroup3, AttrStartSortSK, AttrEndSortSK, attrTagRef}

func taskUpdateShape(tags, startEmpty, endEmpty bool) *ddb.Prepared {
	var upd expression.UpdateBuilder
	n := len(taskSetAttrs) - 1
	for i, a := range taskSetAttrs[:n] {
		upd = upd.Set(expression.Name(a), ddb.Param(i))
	}
	if tags {
		upd = upd.Set(nTagRef, ddb.Param(n))
		n++
	} else {
		upd = upd.Remove(nTagRef)
	}
	c := exists.And(expression.Equal(nStatus, ddb.Param(n)), eqOrMissing(nStart, n+1, startEmpty))
	if !startEmpty {
		n++
	}
	c = c.And(eqOrMissing(nEnd, n+1, endEmpty))
	return updCond(upd, c)
}

// taskUpdate returns UpdateTask's prepared write of t over the task read
// as st, and its values.
func taskUpdate(t Task, st stored) (*ddb.Prepared, []types.AttributeValue) {
	g := groups(t.TeamID, t.Status)
	args := make([]types.AttributeValue, 0, len(taskSetAttrs)+3)
	args = append(args, s(t.Title), s(t.Description), s(string(t.Status)), s(string(t.Start)), s(string(t.End)),
		s(g[0]), s(g[1]), s(g[2]), s(startSK(t.Start)), s(endSK(t.End)))
	tags := 0
	if refs := tagRefs(t.TagIDs); refs != nil {
		args = append(args, refs)
		tags = 1
	}
	args = append(args, s(st.Status))
	se, ee := 1, 1
	if st.StartTime != "" {
		args = append(args, s(st.StartTime))
		se = 0
	}
	if st.EndTime != "" {
		args = append(args, s(st.EndTime))
		ee = 0
	}
	return pTaskUpdate[tags][se][ee], args
}

// named picks the prepared check of a name copy: the value's shape, and
// its arguments.
func named(p [2]*ddb.Prepared, v string) (*ddb.Prepared, []types.AttributeValue) {
	if v == "" {
		return p[1], nil
	}
	return p[0], []types.AttributeValue{s(v)}
}
