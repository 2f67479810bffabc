package todo

import (
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The seed's key formats. Inputs are validated before keys are built, so
// the keys package's own checks are a second line of defence.
const (
	usersPK        = "users"    // PK of every user item; SK is the username
	userPKPrefix   = "user"     // PK of a user's data: user#{username}
	todoSKPrefix   = "todo"     // SK of a todo: todo#{id}
	categorySKPref = "category" // SK of a category: category#{id}

	entityTodo     = "todo"
	entityCategory = "category"
)

func userDataPK(username string) (string, error) {
	return keys.PK(keys.Lit(userPKPrefix), keys.Field("Username", username))
}

func userSK(username string) (string, error) {
	return keys.SK(keys.Field("Username", username))
}

func todoSK(id string) (string, error) {
	return keys.SK(keys.Lit(todoSKPrefix), keys.Field("ID", id))
}

func categorySK(id string) (string, error) {
	return keys.SK(keys.Lit(categorySKPref), keys.Field("ID", id))
}

// itemKey is the key of one item; build collects the first error of its
// parts, so callers check once.
type itemKey struct{ pk, sk string }

func userKey(username string) (itemKey, error) {
	sk, err := userSK(username)
	return itemKey{usersPK, sk}, err
}

func todoKey(username, id string) (itemKey, error) {
	return childKey(username, todoSK, id)
}

func categoryKey(username, id string) (itemKey, error) {
	return childKey(username, categorySK, id)
}

func childKey(username string, sk func(string) (string, error), id string) (itemKey, error) {
	pk, err := userDataPK(username)
	if err != nil {
		return itemKey{}, err
	}
	s, err := sk(id)
	return itemKey{pk, s}, err
}

// key is k as the backend takes it.
func (k itemKey) key() backend.Key { return backend.Key{PK: k.pk, SK: k.sk} }

// The listings: each is a KeyQuery that both stores run, so they share
// order, page boundaries and cursors. They read consistently, as the memory
// store does; DeleteUser and DeleteCategory rely on it to see every item.
// budget is Options.FilterBudget, which a filtered page honours.
func usersQuery(t ddb.Table, budget int) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: usersPK, ConsistentRead: true, Budget: budget}
}

func userDataQuery(t ddb.Table, budget int, username, prefix string) (ddb.KeyQuery, error) {
	if err := validateUsername(username); err != nil {
		return ddb.KeyQuery{}, err
	}
	pk, err := userDataPK(username)
	if err != nil {
		return ddb.KeyQuery{}, err
	}
	q := ddb.KeyQuery{Table: t, PartitionValue: pk, ConsistentRead: true, Budget: budget}
	if prefix != "" {
		p, err := keys.Prefix(keys.Lit(prefix))
		if err != nil {
			return ddb.KeyQuery{}, err
		}
		q.Sort = ddb.SortBeginsWith(p)
	}
	return q, nil
}
