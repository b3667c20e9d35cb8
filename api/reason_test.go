package api

import "testing"

func TestIsReasonPhrase(t *testing.T) {
	for _, tc := range []struct {
		status int
		phrase string
		ok     bool
	}{
		{400, "Bad Request", true},
		{400, "bad request", true},
		{400, "BAD  REQUEST", true},
		{404, "Not found", true},
		{422, "Unprocessable Entity", true},
		{422, "Unprocessable Content", true},
		{413, "Content Too Large", true},
		{413, "Payload Too Large", true},
		{413, "Request Entity Too Large", true},
		{414, "URI Too Long", true},
		{429, "Too Many Requests", true},
		{400, "Not Found", false},
		{404, "Bad Request", false},
		{401, "Unauthorised", false},
		{401, "", false},
		{499, "Client Closed Request", false},
	} {
		if got := IsReasonPhrase(tc.status, tc.phrase); got != tc.ok {
			t.Errorf("%d %q: %v, want %v", tc.status, tc.phrase, got, tc.ok)
		}
	}
}
