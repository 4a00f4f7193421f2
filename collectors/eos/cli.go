package eos

import (
	"fmt"

	"github.com/roceaudit/roceaudit/collectors"
)

// cliError returns the CLI's complaint when the output is an EOS error message, not data.
func cliError(out string) error {
	cli, _ := descriptor.CLI()
	if line, refused := collectors.Refusal(out, cli.Refusals); refused {
		return fmt.Errorf("the switch refused the command: %s", line)
	}
	return nil
}
