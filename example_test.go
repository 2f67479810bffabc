package ddbkit_test

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/ddbkit/ddbkit"
)

// All turns any paged listing into a range-over-func loop.
func ExampleAll() {
	letters := []string{"a", "b", "c", "d", "e"}
	fetch := func(cursor string) (ddbkit.Page[string], error) {
		i, _ := strconv.Atoi(cursor) // "" is the first page
		end := min(i+2, len(letters))
		p := ddbkit.Page[string]{Items: letters[i:end]}
		if end < len(letters) {
			p.Next = strconv.Itoa(end)
		}
		return p, nil
	}
	for s, err := range ddbkit.All(fetch) {
		if err != nil {
			panic(err)
		}
		fmt.Print(s, " ")
	}
	fmt.Println()
	// Output: a b c d e
}

func ExampleValidationError() {
	err := fmt.Errorf("todo: create todo: %w", ddbkit.Invalid("Priority", "must be one of high, medium, low; got %q", "urgent"))

	var ve *ddbkit.ValidationError
	if errors.Is(err, ddbkit.ErrInvalidArgument) && errors.As(err, &ve) {
		fmt.Println("field:", ve.Field)
	}
	fmt.Println(err)
	// Output:
	// field: Priority
	// todo: create todo: invalid argument: Priority: must be one of high, medium, low; got "urgent"
}
