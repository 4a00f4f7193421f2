// Package switchcollect is the collection skeleton of the switch collectors that send a fixed
// list of commands (EOS, NX-OS): run each command once, keep every answer or failure, parse
// what answered, and build the switch-wide facts from it. A fact whose command failed is
// Unknown with the failure as evidence; only a switch that answered nothing fails as a whole.
package switchcollect
