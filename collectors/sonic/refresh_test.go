package sonic

import (
	"testing"
	"time"
)

func TestCounterPoll(t *testing.T) {
	db := func(fc map[string]map[string]string) *ConfigDB {
		return &ConfigDB{Tables: map[string]map[string]map[string]string{"FLEX_COUNTER_TABLE": fc}}
	}
	for _, tc := range []struct {
		name string
		fc   map[string]map[string]string
		want time.Duration
		err  bool
	}{
		{"defaults: the queue counters' 10 s", map[string]map[string]string{"PFCWD": {"FLEX_COUNTER_STATUS": "enable"}}, 10 * time.Second, false},
		{"queue tuned, port default", map[string]map[string]string{"QUEUE": {"POLL_INTERVAL": "500"}}, time.Second, false},
		{"port and queue set lower", map[string]map[string]string{"PORT": {"POLL_INTERVAL": "200"}, "QUEUE": {"POLL_INTERVAL": "300"}}, 300 * time.Millisecond, false},
		{"longest of port, queue and pfcwd", map[string]map[string]string{"PORT": {"POLL_INTERVAL": "200"}, "QUEUE": {"POLL_INTERVAL": "200"}, "PFCWD": {"POLL_INTERVAL": "1500"}}, 1500 * time.Millisecond, false},
		{"not a number", map[string]map[string]string{"PORT": {"POLL_INTERVAL": "fast"}}, 10 * time.Second, true},
	} {
		got, err := db(tc.fc).counterPoll()
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("%s: %v, %v; want %v (error %v)", tc.name, got, err, tc.want, tc.err)
		}
	}
}
