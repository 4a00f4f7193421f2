package cumulus

import (
	"cmp"
	"strconv"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func version(sw *switchstate.Switch) string { return cmp.Or(sw.Version, DefaultVersion) }

// speed is NVUE's spelling of a port speed ("100G").
func speed(p *switchstate.Port) string { return strconv.Itoa(p.Speed) + "G" }
