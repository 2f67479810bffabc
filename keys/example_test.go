package keys_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/keys"
)

func ExamplePK() {
	pk, err := keys.PK(keys.Lit("user"), keys.Field("Username", "alice"))
	if err != nil {
		panic(err)
	}
	sk, err := keys.SK(keys.Lit("todo"), keys.Field("ID", "0190c5b2"))
	if err != nil {
		panic(err)
	}
	fmt.Println(pk, sk)
	fmt.Printf("%q\n", keys.Split(sk))

	// A caller-supplied value containing the separator would let one user's
	// keys reach into another's, so it is rejected and named.
	_, err = keys.PK(keys.Lit("user"), keys.Field("Username", "alice#todo"))
	fmt.Println(errors.Is(err, ddbkit.ErrInvalidArgument))
	fmt.Println(err)
	// Output:
	// user#alice todo#0190c5b2
	// ["todo" "0190c5b2"]
	// true
	// invalid argument: Username: must not contain "#" (found at byte 5): it separates key segments
}

func ExamplePrefix() {
	// The trailing separator keeps begins_with("todo#") from matching "todolist#…".
	p, err := keys.Prefix(keys.Lit("todo"))
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	// Output: todo#
}

func ExamplePrefixRange() {
	lo, _ := keys.Pad(1700000000000, 16)
	hi, _ := keys.Pad(1800000000000, 16)
	from, to := keys.PrefixRange("CREATED#"+lo, "CREATED#"+hi)
	fmt.Printf("%q\n%q\n", from, to)
	// Output:
	// "CREATED#0001700000000000"
	// "CREATED#0001800000000000#\U0010ffff"
}

func ExamplePad() {
	s, _ := keys.Pad(42, 5)
	fmt.Println(s)
	_, err := keys.Pad(100000, 5)
	fmt.Println(err)
	// Output:
	// 00042
	// invalid argument: n: 100000 needs 6 digits, more than the width of 5
}

func ExampleUnixMillis() {
	s, err := keys.UnixMillis(time.Date(2024, 1, 7, 0, 0, 0, 0, time.UTC))
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	t, err := keys.ParseUnixMillis(s)
	if err != nil {
		panic(err)
	}
	fmt.Println(t)
	// Output:
	// 1704585600000
	// 2024-01-07 00:00:00 +0000 UTC
}

func ExampleTimestamp() {
	jst := time.FixedZone("JST", 9*60*60)
	t := time.Date(2024, 1, 7, 8, 30, 0, 123456789, jst)
	fmt.Println(keys.Timestamp(t))
	fmt.Println(keys.DateCompact(t), keys.DateISO(t))

	_, err := keys.ParseTimestamp("2024-01-07T08:30:00+09:00")
	fmt.Println(err)
	// Output:
	// 2024-01-06T23:30:00.123Z
	// 20240107 2024-01-07
	// invalid argument: timestamp: got "2024-01-07T08:30:00+09:00", want YYYY-MM-DDThh:mm:ss.sssZ (UTC, exactly three fractional digits)
}
