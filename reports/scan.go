package reports

import "github.com/roceaudit/roceaudit/checks"

// resultScan is what a report's summaries need of its results, gathered in one pass: at
// 10,000 devices the results are a million (~180 MB), and building the report then writing
// its summary line had read them five times over (statuses twice, ports twice, devices),
// most of check's serial tail.
type resultScan struct {
	byStatus []int // by statusRank
	other    map[checks.Status]int
	// ports are the ports (device, interface) results name; devices the devices.
	ports   map[[2]string]bool
	devices map[string]bool
}

func scanResults(results []checks.Result) *resultScan {
	s := &resultScan{byStatus: make([]int, len(checks.Statuses)), ports: map[[2]string]bool{}, devices: map[string]bool{}}
	// A device's results come together, a port's mostly so: a result naming what the one
	// before it did is not looked up again (a million results name ~70,000 ports).
	var lastPort [2]string
	lastDevice := ""
	for i := range results {
		res := &results[i]
		if k := statusRank(res.Status); k < len(s.byStatus) {
			s.byStatus[k]++
		} else {
			if s.other == nil {
				s.other = map[checks.Status]int{}
			}
			s.other[res.Status]++
		}
		if res.Device != "" && res.Device != lastDevice {
			s.devices[res.Device] = true
			lastDevice = res.Device
		}
		if res.Interface == "" {
			continue
		}
		if k := [2]string{res.Device, res.Interface}; k != lastPort { // lastPort is never a port at first: k names an interface
			s.ports[k] = true
			lastPort = k
		}
	}
	return s
}

// summary is the count of results per status, every status present.
func (s *resultScan) summary() map[checks.Status]int {
	out := make(map[checks.Status]int, len(checks.Statuses)+len(s.other))
	for i, st := range checks.Statuses {
		out[st] = s.byStatus[i]
	}
	for st, n := range s.other {
		out[st] += n
	}
	return out
}
