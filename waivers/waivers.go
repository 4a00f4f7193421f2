// Package waivers reads a waiver file (--waivers) and applies it to check results: a result
// a live waiver matches becomes waived, keeping its actual value, with the reason and expiry
// in its message. Expired waivers no longer apply; the caller reports them, and the waivers
// that matched nothing, so a waiver file cannot silently rot.
package waivers

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/checks"
)

// Waiver is one entry of the file. Check, Device and Interface are glob patterns ("*" any
// run of characters, "?" one); an empty pattern matches everything.
type Waiver struct {
	Check     string `json:"check,omitempty"`
	Device    string `json:"device,omitempty"`
	Interface string `json:"interface,omitempty"`
	Reason    string `json:"reason"`
	Expires   string `json:"expires"` // YYYY-MM-DD: the waiver holds through that day
	Owner     string `json:"owner,omitempty"`
	Line      int    `json:"line"` // where the entry starts in its file
	// MatchedErrors is, on an unused waiver, how many results it matched that are errors:
	// errors are never waived, so a waiver written for one looks as if it does nothing.
	MatchedErrors int `json:"matched_errors,omitempty"`
}

// UnusedWhy says why an unused waiver waived nothing when a reason can be given.
func (w Waiver) UnusedWhy() string {
	if w.MatchedErrors == 0 {
		return ""
	}
	n := fmt.Sprintf("%d results that are errors", w.MatchedErrors)
	if w.MatchedErrors == 1 {
		n = "1 result that is an error"
	}
	return "matched " + n + ": errors are never waived"
}

// Expired reports whether the waiver's last day is before today's date. A date that does
// not parse (Parse never returns one) has expired.
func (w Waiver) Expired(today time.Time) bool {
	end, err := time.Parse(time.DateOnly, w.Expires)
	y, m, d := today.Date()
	return err != nil || end.Before(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
}

// matcher is a waiver's patterns compiled once per Apply.
type matcher [3]*regexp.Regexp

func (w Waiver) matcher() matcher {
	return matcher{glob(w.Check), glob(w.Device), glob(w.Interface)}
}

func (m matcher) matches(r checks.Result) bool {
	for i, v := range []string{r.Check, r.Device, r.Interface} {
		if p := m[i]; p != nil && !p.MatchString(v) {
			return false
		}
	}
	return true
}

// Outcome is what applying a waiver file did.
type Outcome struct {
	Results []checks.Result // a copy; waived results replaced
	Applied int             // results that became waived
	Expired []Waiver        // past their date: no longer applied
	Unused  []Waiver        // live, but matched no result that needed it
}

// Waivable says which results a waiver may turn into waived: failures and warnings. An error
// means the audit could not decide; waiving it would hide an incomplete audit.
func Waivable(s checks.Status) bool { return s == checks.Fail || s == checks.Warn }

// Apply waives every waivable result the first live matching waiver covers; today decides
// expiry (the caller passes the clock so tests and reports agree on it).
func Apply(ws []Waiver, results []checks.Result, today time.Time) Outcome {
	out := Outcome{Results: make([]checks.Result, len(results))}
	copy(out.Results, results)
	used := make([]bool, len(ws))
	errs := make([]int, len(ws)) // errors each live waiver matched, to explain an unused one
	ms := make([]matcher, len(ws))
	for j, w := range ws {
		ms[j] = w.matcher()
	}
	for i, r := range out.Results {
		if r.Status == checks.Error {
			for j, w := range ws {
				if !w.Expired(today) && ms[j].matches(r) {
					errs[j]++
				}
			}
		}
		if !Waivable(r.Status) {
			continue
		}
		for j, w := range ws {
			if w.Expired(today) || !ms[j].matches(r) {
				continue
			}
			used[j] = true
			out.Results[i] = waive(r, w)
			out.Applied++
			break
		}
	}
	for j, w := range ws {
		switch {
		case w.Expired(today):
			out.Expired = append(out.Expired, w)
		case !used[j]:
			w.MatchedErrors = errs[j]
			out.Unused = append(out.Unused, w)
		}
	}
	return out
}

// waive marks r waived by w; the actual value, evidence and remediation stay as found.
func waive(r checks.Result, w Waiver) checks.Result {
	why := w.Reason
	if w.Owner != "" {
		why += "; owner " + w.Owner
	}
	msg := fmt.Sprintf("waived until %s (%s)", w.Expires, why)
	if r.Message != "" {
		msg += ": " + r.Message
	}
	r.Message = msg
	r.Status = checks.Waived
	return r
}

// glob compiles a pattern of "*" and "?" into an anchored regexp; "" matches everything.
func glob(p string) *regexp.Regexp {
	if p == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
