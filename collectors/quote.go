package collectors

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// quoteMax is how much of an unparsable line an error quotes: enough to recognise it, little
// enough that a device answering garbage cannot flood a report.
const quoteMax = 80

// QuoteLine quotes a line of device output for an error message, cut at quoteMax bytes.
func QuoteLine(s string) string {
	if len(s) <= quoteMax {
		return strconv.Quote(s)
	}
	cut := quoteMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}
