package taskmgmt

import (
	"fmt"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
)

// Authorization: the operations the roles restrict (see "Roles" in the
// package doc) check the acting user's team_user item in the transaction
// (or the condition) of their write.

// labelActor labels the check of the acting user's role.
const labelActor = "actor"

// checkAdmin is the ConditionCheck that actorID is an admin of the team:
// its team_user item exists and holds user_team_role "admin".
func (c *core) checkAdmin(teamID, actorID string) backend.Write {
	return backend.Check(labelActor, c.t, teamUserKey(teamID, actorID).key(), admin)
}

// refused maps a failed actor check of err to errPermission; it reports
// whether it did.
func refused(err error, teamID, actorID, op string) (error, bool) {
	if _, ok := backend.Failed(err, labelActor); ok {
		return errPermission(teamID, actorID, op), true
	}
	return err, false
}

// permissionError is a refusal by role. It matches
// ddbkit.ErrPermissionDenied and, as every refusal needs the admin role,
// ErrNotAdmin, and no other sentinel.
type permissionError struct{ teamID, userID, op string }

func (e *permissionError) Error() string {
	return fmt.Sprintf("user %q is not an admin of team %q, and only an admin may %s; ask an admin of the team: %v",
		e.userID, e.teamID, e.op, ddbkit.ErrPermissionDenied)
}

func (e *permissionError) Is(target error) bool {
	return target == ddbkit.ErrPermissionDenied || target == ErrNotAdmin
}

// errPermission refuses op to userID, who is no admin of the team (or no
// member at all).
func errPermission(teamID, userID, op string) error {
	return &permissionError{teamID: teamID, userID: userID, op: op}
}
