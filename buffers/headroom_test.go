package buffers

import (
	"math"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// spectrum is SONiC's ASIC_TABLE for Spectrum-1 (cell 96) or Spectrum-2/3 (cell 144), with the
// LOSSLESS_TRAFFIC_PATTERN mtu 1024 and small_packet_percentage 100.
func spectrum(cell int) topology.HeadroomASIC {
	return topology.HeadroomASIC{Name: "spectrum", CellSize: cell, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8,
		PeerResponseKB: 3.8, LosslessMTU: 1024, SmallPacketPercent: 100}
}

// Worked by hand, 100G, 5 m, MTU 9100:
//
//	cable = 2 x 5 x 100000 x 1e9 / 1.98e8 / 8192 = 616.52
//	peer  = 394 x 512 / 8                         = 25216
//	delay = 9100 + 616.52 + 819.2 + 25216         = 35751.72
//	Spectrum-2/3: w = 144/64 = 2.25, xoff = ceil1K(1024 + 80441.36) = 80 KB = 81920
//	Spectrum-1:   w = 192/97 = 1.97938, xoff = ceil1K(1024 + 70766.27) = 71 KB = 72704
//	xon = 18 KB = 18432; size = xoff + xon.
func TestRequiredHeadroomWorked(t *testing.T) {
	for _, tc := range []struct {
		name               string
		cell, cable, mtu   int
		speed              int
		xoff, xon, size    int
		cableBytes, occupy float64
	}{
		{"SPC2 100G 5m 9100", 144, 5, 9100, 100000, 81920, 18432, 100352, 616.52, 2.25},
		{"SPC1 100G 5m 9100", 96, 5, 9100, 100000, 72704, 18432, 91136, 616.52, 1.97938},
		// The lab's healthy ports: 40 m, MTU 9216: delay 9216 + 4932.13 + 819.2 + 25216 =
		// 40183.33, x 2.25 + 1024 = 91436.5 -> 90 KB.
		{"SPC3 100G 40m 9216", 144, 40, 9216, 100000, 92160, 18432, 110592, 4932.13, 2.25},
		// The lab's fault: the same port claimed at 300 m: 9216 + 36991.00 + 819.2 + 25216 =
		// 72242.20, x 2.25 + 1024 = 163569.0 -> 160 KB.
		{"SPC3 100G 300m 9216", 144, 300, 9216, 100000, 163840, 18432, 182272, 36991.00, 2.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Required(topology.Headroom{SpeedMbps: tc.speed, CableM: tc.cable, PortMTU: tc.mtu, ASIC: spectrum(tc.cell)})
			if err != nil {
				t.Fatal(err)
			}
			if got.Xoff != tc.xoff || got.Xon != tc.xon || got.Size != tc.size {
				t.Errorf("xoff/xon/size = %d/%d/%d, want %d/%d/%d", got.Xoff, got.Xon, got.Size, tc.xoff, tc.xon, tc.size)
			}
			if math.Abs(got.CableBytes-tc.cableBytes) > 0.01 || math.Abs(got.Occupancy-tc.occupy) > 0.00001 || got.PeerBytes != 25216 {
				t.Errorf("terms cable %.2f occupancy %.5f peer %.0f", got.CableBytes, got.Occupancy, got.PeerBytes)
			}
		})
	}
}

// With the ASIC table's 3.8 KB peer response instead of the pause quanta, the arithmetic gives
// back the xoff column of SONiC's traditional table for ACS-MSN2700 (pg_profile_lookup.ini:
// 10G 5m 29696, 100G 5m 30720, 100G 40m 38912) at MTU 9216: that table came from the same
// formula before pause quanta were added.
func TestHeadroomReproducesLookupTable(t *testing.T) {
	for _, tc := range []struct{ speed, cable, xoff int }{{10000, 5, 29696}, {100000, 5, 30720}, {100000, 40, 38912}} {
		h := topology.Headroom{SpeedMbps: tc.speed, CableM: tc.cable, PortMTU: 9216, ASIC: spectrum(96)}
		if got := With(h, 3.8*1024); got.Xoff != tc.xoff {
			t.Errorf("%d Mb/s %d m: xoff %d, want %d", tc.speed, tc.cable, got.Xoff, tc.xoff)
		}
	}
}

func TestRequiredHeadroomInputs(t *testing.T) {
	ok := topology.Headroom{SpeedMbps: 100000, CableM: 5, PortMTU: 9100, ASIC: spectrum(144)}
	for name, mut := range map[string]func(h *topology.Headroom){
		"no speed": func(h *topology.Headroom) { h.SpeedMbps = 0 },
		"no mtu":   func(h *topology.Headroom) { h.PortMTU = 0 },
		"no cell":  func(h *topology.Headroom) { h.ASIC.CellSize = 0 },
		"odd speed, no peer time": func(h *topology.Headroom) {
			h.SpeedMbps, h.ASIC.PeerResponseKB = 12345, 0
		},
	} {
		h := ok
		mut(&h)
		if _, err := Required(h); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A speed outside the quanta table falls back to the ASIC's peer response time.
	h := ok
	h.SpeedMbps = 12345
	if got, err := Required(h); err != nil || got.PeerBytes != 3.8*1024 {
		t.Errorf("fallback peer %v, %v", got.PeerBytes, err)
	}
	h = ok
	h.ASIC.SharedHeadroomPool = true
	if got, _ := Required(h); got.Size != got.Xon {
		t.Errorf("shared headroom pool: size %d, want xon %d", got.Size, got.Xon)
	}
}
