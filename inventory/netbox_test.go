package inventory

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

const testToken = "0123456789abcdef0123456789abcdef01234567"

// netboxServer answers the recorded NetBox responses of testdata/imports/netbox, as NetBox
// would: token checked, devices filtered by site and paginated, interfaces and cables by
// device_id. requests counts what was asked.
func netboxServer(t *testing.T, tlsServer bool) (*httptest.Server, *[]string) {
	t.Helper()
	read := func(name string) string {
		return string(mustRead(t, filepath.Join("testdata/imports/netbox", name)))
	}
	var requests []string
	var srv *httptest.Server
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests = append(requests, r.Method+" "+r.URL.RequestURI())
		if r.Header.Get("Authorization") != "Token "+testToken {
			http.Error(w, `{"detail":"Invalid token"}`, http.StatusForbidden)
			return
		}
		q := r.URL.Query()
		var body string
		switch {
		case r.Method != http.MethodGet:
			http.Error(w, "read-only", http.StatusMethodNotAllowed)
			return
		case r.URL.Path == "/api/dcim/devices/" && q.Get("site") == "dc1" && q.Get("offset") == "":
			body = read("devices-page1.json")
		case r.URL.Path == "/api/dcim/devices/" && q.Get("site") == "dc1" && q.Get("offset") == "3":
			body = read("devices-page2.json")
		case r.URL.Path == "/api/dcim/devices/":
			body = `{"count": 0, "next": null, "previous": null, "results": []}`
		case r.URL.Path == "/api/dcim/interfaces/" && len(q["device_id"]) > 0:
			body = read("interfaces.json")
		case r.URL.Path == "/api/dcim/cables/" && len(q["device_id"]) > 0:
			body = read("cables.json")
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(body, "http://netbox.example", srv.URL)))
	})
	srv = httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted-certificate test's handshake
	if tlsServer {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, &requests
}

func caFile(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(f, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func loadTestNetBox(t *testing.T, raw string, token string, ov *overlay, opts Options) (*Inventory, error) {
	t.Helper()
	c, err := newNetBoxClient(raw, opts, token)
	if err != nil {
		return nil, err
	}
	return c.inventory(context.Background(), testPlatforms, testEnv(), ov, opts)
}

func TestNetBoxOverTLS(t *testing.T) {
	srv, requests := netboxServer(t, true)
	inv, err := loadTestNetBox(t, srv.URL, testToken, nil, Options{Site: []string{"dc1"}, CAFile: caFile(t, srv)})
	if err != nil {
		t.Fatal(err)
	}
	type dev struct{ Name, Platform, Address string }
	var got []dev
	for _, d := range inv.Devices {
		got = append(got, dev{d.Name, d.Platform, d.Address})
	}
	// gpu01 (platform ubuntu) and leaf2 (cumulus-linux) need a mapping; pdu1 has no platform.
	want := []dev{{"leaf1", "sonic", "10.0.1.1"}, {"spine1", "eos", "2001:db8::3"}}
	if !slices.Equal(got, want) {
		t.Errorf("devices %v, want %v", got, want)
	}
	wantLinks := []topology.Link{{A: topology.PortRef{Device: "leaf1", Interface: "Ethernet4"}, B: topology.PortRef{Device: "spine1", Interface: "Ethernet1"}, Source: "inventory"}}
	if !slices.Equal(inv.Links, wantLinks) {
		t.Errorf("links %v, want %v", inv.Links, wantLinks)
	}
	for _, w := range []string{
		`device "gpu01" left out: NetBox platform "ubuntu" is not one roceaudit knows (map it with platforms: {ubuntu: PLATFORM} in --defaults)`,
		`device "pdu1" left out: it has no platform in NetBox`,
		`device #6 left out: it has no name`,
	} {
		if !slices.ContainsFunc(inv.Warnings, func(g string) bool { return strings.HasSuffix(g, w) || strings.Contains(g, w) }) {
			t.Errorf("no warning %q in %q", w, inv.Warnings)
		}
	}
	// Every page was asked for, by GET, with the site filter and a page size; active devices
	// and connected cables only (spine2 is planned, and so is the cable gpu01:eno1 -
	// leaf1:Ethernet8, which the recorded answers hold anyway).
	if len(*requests) != 4 || !strings.Contains((*requests)[0], "site=dc1") || !strings.Contains((*requests)[0], "limit=250") || !strings.Contains((*requests)[1], "offset=3") {
		t.Errorf("requests %q", *requests)
	}
	for i, want := range []string{"status=active", "status=active", "", "status=connected"} {
		if i < len(*requests) && !strings.Contains((*requests)[i], want) {
			t.Errorf("request %q: no %s", (*requests)[i], want)
		}
	}
	out, err := inv.MarshalYAML()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(inv.Warnings, string(out), inv.File) {
		if strings.Contains(s, testToken) {
			t.Errorf("the token is shown: %q", s)
		}
	}
}

// The overlay maps NetBox platform slugs and gives the login; --limit selects by role, site
// or tag slug.
func TestNetBoxOverlayAndLimit(t *testing.T) {
	srv, _ := netboxServer(t, false)
	ov, err := parseOverlay("conn.yaml", []byte("defaults: {user: netops}\nplatforms: {ubuntu: linux, cumulus-linux: cumulus}\n"), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	inv, err := loadTestNetBox(t, srv.URL, testToken, ov, Options{Site: []string{"dc1"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(deviceNames(inv), " "); got != "gpu01 leaf1 spine1 leaf2" {
		t.Errorf("devices %s", got)
	}
	if len(inv.Links) != 3 || inv.Devices[0].Conn.User != "netops" || inv.Devices[0].Address != "10.0.0.11" {
		t.Errorf("links %v, gpu01 %+v", inv.Links, inv.Devices[0])
	}
	inv, err = loadTestNetBox(t, srv.URL, testToken, ov, Options{Site: []string{"dc1"}, Limit: []string{"leaf", "rdma"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(deviceNames(inv), " "); got != "gpu01 leaf1 leaf2" {
		t.Errorf("--limit leaf,rdma: %s", got)
	}
}

// ?status= and ?cable_status= take planned devices and cables too.
func TestNetBoxStatusOverride(t *testing.T) {
	srv, requests := netboxServer(t, false)
	ov, err := parseOverlay("conn.yaml", []byte("platforms: {ubuntu: linux}\n"), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	spec := srv.URL + "?site=dc1&status=active,planned&cable_status=connected,planned"
	raw, opts, err := splitOptions(spec)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := loadTestNetBox(t, raw, testToken, ov, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(deviceNames(inv), " "); got != "gpu01 leaf1 spine1 spine2" {
		t.Errorf("devices %s", got)
	}
	planned := topology.Link{A: topology.PortRef{Device: "gpu01", Interface: "eno1"}, B: topology.PortRef{Device: "leaf1", Interface: "Ethernet8"}, Source: "inventory"}
	if len(inv.Links) != 3 || !slices.Contains(inv.Links, planned) {
		t.Errorf("links %v, want 3 with %v", inv.Links, planned)
	}
	if r := (*requests)[0]; !strings.Contains(r, "status=active&status=planned") {
		t.Errorf("devices request %q", r)
	}
	if _, _, err := splitOptions("ansible:hosts?status=planned"); err != nil {
		t.Fatal(err)
	}
	if err := (Options{Status: []string{"planned"}}).check(SourceAnsible); err == nil || !strings.Contains(err.Error(), "option status is for netbox") {
		t.Errorf("status for ansible: %v", err)
	}
}

func TestNetBoxErrors(t *testing.T) {
	srv, _ := netboxServer(t, true)
	if _, err := loadTestNetBox(t, srv.URL, testToken, nil, Options{Site: []string{"dc1"}}); err == nil || !strings.Contains(err.Error(), "certificate") || !strings.Contains(err.Error(), "GET /api/dcim/devices/") || !strings.Contains(err.Error(), "?ca=FILE") {
		t.Errorf("untrusted certificate: %v", err)
	}
	_, err := loadTestNetBox(t, srv.URL, "wrong-token", nil, Options{Site: []string{"dc1"}, CAFile: caFile(t, srv)})
	if err == nil || !strings.Contains(err.Error(), "403 Forbidden (set $NETBOX_TOKEN") || strings.Contains(err.Error(), "wrong-token") {
		t.Errorf("bad token: %v", err)
	}
	_, err = loadTestNetBox(t, srv.URL, testToken, nil, Options{Site: []string{"nowhere"}, CAFile: caFile(t, srv)})
	if err == nil || !strings.Contains(err.Error(), "no device to audit: NetBox has no device matching site=nowhere") {
		t.Errorf("empty site: %v", err)
	}
	for raw, want := range map[string]string{
		"http://netbox.example.com": "plain http would send the API token in the clear",
		"ftp://netbox":              "expected netbox:https://HOST",
	} {
		if _, err := newNetBoxClient(raw, Options{}, testToken); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

// A next link that names another host or scheme (NetBox behind a proxy names itself) is
// asked of the configured NetBox, with its query: the token stays with the NetBox it is for.
func TestNetBoxNextOnAnotherHost(t *testing.T) {
	var pages []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := `{"count": 0, "next": null, "results": []}`
		if r.URL.Path == "/api/dcim/devices/" {
			pages = append(pages, r.URL.Query().Get("offset"))
			body = `{"count": 2, "next": "https://netbox.internal:8000/api/dcim/devices/?limit=250&offset=1", "results": [{"id": 1, "name": "leaf1", "platform": {"slug": "sonic"}, "status": {"value": "active"}, "primary_ip": {"address": "10.0.1.1/32"}}]}`
			if r.URL.Query().Get("offset") == "1" {
				body = `{"count": 2, "next": null, "results": [{"id": 2, "name": "leaf2", "platform": {"slug": "sonic"}, "status": {"value": "active"}, "primary_ip": {"address": "10.0.1.2/32"}}]}`
			}
		}
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	inv, err := loadTestNetBox(t, srv.URL, testToken, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := deviceNames(inv); !slices.Equal(got, []string{"leaf1", "leaf2"}) || !slices.Equal(pages, []string{"", "1"}) {
		t.Errorf("devices %v from pages %q, want leaf1 and leaf2 from offsets \"\" and 1", got, pages)
	}
}

// A device without a primary IP is reached by its name, with a warning, unless the overlay
// gives it an address.
func TestNetBoxOverlayAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := `{"count": 0, "next": null, "results": []}`
		if r.URL.Path == "/api/dcim/devices/" {
			body = `{"count": 1, "next": null, "results": [{"id": 1, "name": "leaf9", "platform": {"slug": "sonic"}, "status": {"value": "active"}, "primary_ip": null}]}`
		}
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	inv, err := loadTestNetBox(t, srv.URL, testToken, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := inv.Device("leaf9"); d.Address != "leaf9" || len(inv.Warnings) != 1 || !strings.Contains(inv.Warnings[0], `device "leaf9" has no primary IP in NetBox: reaching it by its name`) {
		t.Errorf("address %q, warnings %q", d.Address, inv.Warnings)
	}
	ov, err := parseOverlay("ov.yaml", []byte("devices: {leaf9: {address: 10.0.1.9}}\n"), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	inv, err = loadTestNetBox(t, srv.URL, testToken, ov, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := inv.Device("leaf9"); d.Address != "10.0.1.9" || len(inv.Warnings) != 0 {
		t.Errorf("with the overlay: address %q, warnings %q", d.Address, inv.Warnings)
	}
}

// A token given as an option is refused, and the error does not repeat it.
func TestNetBoxTokenOptionIsRefusedUnshown(t *testing.T) {
	_, _, err := splitOptions("netbox:https://netbox.example.net?site=dc1&token=feedface1234")
	if err == nil || !strings.Contains(err.Error(), "$NETBOX_TOKEN") || strings.Contains(err.Error(), "feedface1234") {
		t.Errorf("err = %v, want the token refused and not shown", err)
	}
}

// Devices left out for one platform slug are one warning, with their count and a few names.
func TestNetBoxUnmappedPlatformIsOneWarning(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := `{"count": 0, "next": null, "results": []}`
		if r.URL.Path == "/api/dcim/devices/" {
			var devs []string
			for i := 1; i <= 5; i++ {
				devs = append(devs, fmt.Sprintf(`{"id": %d, "name": "srv%d", "platform": {"slug": "ubuntu"}, "status": {"value": "active"}, "primary_ip": null}`, i, i))
			}
			devs = append(devs, `{"id": 9, "name": "leaf1", "platform": {"slug": "sonic"}, "status": {"value": "active"}, "primary_ip": {"address": "10.0.1.1/32"}}`)
			body = `{"count": 6, "next": null, "results": [` + strings.Join(devs, ",") + `]}`
		}
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	inv, err := loadTestNetBox(t, srv.URL, testToken, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Warnings) != 1 || !strings.Contains(inv.Warnings[0], `5 devices (srv1, srv2, srv3, ...) left out: NetBox platform "ubuntu" is not one roceaudit knows`) {
		t.Errorf("warnings %q", inv.Warnings)
	}
}
