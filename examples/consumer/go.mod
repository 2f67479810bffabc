// A module outside ddbkit, as a user's service would be. It is not in
// go.work and has no replace directive: scripts/consumer-test.sh (run by
// make test) publishes ddbkit and ddbtest from the working tree to a
// file:// module proxy and adds them here with "go get", as a user would.
module example.com/todoservice

go 1.25.0
