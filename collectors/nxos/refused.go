package nxos

import "strings"

// refused is refused(out), given only out's first lines: collectors.Refusal reads
// no further than its first few lines that are not blank (or only carets), but splits the
// whole output to find them, a slice of every line of a reply (EOS indents its JSON: 190 kB
// for a 248-port leaf's `show interfaces | json`).
func refused(out string) error { return descriptor.Refused(refusalHead(out)) }

// refusalLinesRead is how many lines refusalHead keeps that Refusal counts: more than the 3 it
// reads (TestRefusedAgreesWithDescriptor would catch it reading more).
const refusalLinesRead = 16

// refusalHead is out up to the end of its refusalLinesRead-th line that is not blank or only
// carets, or all of out.
func refusalHead(out string) string {
	seen := 0
	for start := 0; start < len(out); {
		end := strings.IndexByte(out[start:], '\n')
		if end < 0 {
			return out
		}
		end += start
		if t := strings.TrimSpace(out[start:end]); t != "" && strings.Trim(t, "^ ") != "" {
			if seen++; seen == refusalLinesRead {
				return out[:end]
			}
		}
		start = end + 1
	}
	return out
}
