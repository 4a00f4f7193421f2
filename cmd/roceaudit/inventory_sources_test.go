package main

import (
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const importsDir = "../../inventory/testdata/imports/"

// Every source goes through the real command line: --limit and --defaults in any order,
// validate --format yaml prints a native inventory that validate accepts back, and plan
// uses the overlay's connection settings.
func TestInventorySourcesEndToEnd(t *testing.T) {
	dir := t.TempDir()
	conn := filepath.Join(dir, "conn.yaml")
	if err := os.WriteFile(conn, []byte("defaults: {user: labops, identity_file: ~/.ssh/lab}\ndevices:\n  spine1: {user: admin, password_env: SPINE_PW}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	clab := "clab:" + importsDir + "clab/valid/roce-clos.clab.yml"
	for _, args := range [][]string{
		{"validate", "-i", clab, "--defaults", conn, "--limit", "spine1,gpu01", "--format", "yaml"},
		{"validate", "--limit", "spine1", "--format", "yaml", "--defaults", conn, "--limit", "gpu01", "-i", clab},
		{"validate", "-i", clab + "?limit=spine1,gpu01&defaults=" + conn, "--format", "yaml"},
	} {
		code, out, errs := run(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		if !strings.Contains(out, "name: spine1") || !strings.Contains(out, "name: gpu01") || strings.Contains(out, "leaf1") ||
			!strings.Contains(out, "password_env: SPINE_PW") || !strings.Contains(out, "user: labops") {
			t.Errorf("%v: printed\n%s", args, out)
		}
		back := filepath.Join(dir, "back.yaml")
		if err := os.WriteFile(back, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out2, errs := run(t, "validate", "-i", back); code != exitOK || !strings.Contains(out2, "valid (1 hosts, 1 switches") {
			t.Errorf("printed inventory does not validate: exit %d %s %s", code, out2, errs)
		}
	}

	code, out, errs := run(t, "plan", "-i", clab, "--defaults", conn, "--format", "json")
	if code != exitOK {
		t.Fatalf("plan: exit %d %s", code, errs)
	}
	var plan struct {
		Devices []struct{ Name, User string }
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	users := map[string]string{}
	for _, d := range plan.Devices {
		users[d.Name] = d.User
	}
	if users["spine1"] != "admin" || users["gpu01"] != "labops" || len(users) != 6 {
		t.Errorf("plan users %v", users)
	}
}

func TestInventorySourcesINIAndWarnings(t *testing.T) {
	dir := t.TempDir()
	ini := filepath.Join(dir, "hosts")
	if err := os.WriteFile(ini, []byte("[gpus]\ngpu[01:02] ansible_user=hpc ansible_hots=10.0.0.1\n[leaves]\nleaf1 ansible_network_os=arista.eos.eos ansible_ssh_user=admin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "validate", "-i", "ansible:"+ini, "--limit", "gpus")
	if code != exitOK || !strings.Contains(out, "valid (2 hosts, 0 switches") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "roceaudit: warning: "+ini+":2:29: unknown Ansible variable ansible_hots ignored; did you mean ansible_host?") {
		t.Errorf("stderr %q", errs)
	}
	if code, _, errs := run(t, "validate", "-i", "ansible:"+ini, "--limit", "spines"); code != exitUsage || !strings.Contains(errs, `--limit "spines" matches no device or group`) {
		t.Errorf("unmatched --limit: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "validate", "-i", importsDir+"../inventory/valid/minimal.yaml", "--defaults", ini); code != exitUsage || !strings.Contains(errs, "--defaults is for imported sources") {
		t.Errorf("--defaults on a native inventory: exit %d %s", code, errs)
	}
}

// -i netbox:URL goes through the command line with the token from $NETBOX_TOKEN, filters in
// the source and the CA file option; the token is never shown.
func TestInventorySourceNetBox(t *testing.T) {
	const token = "feedfacefeedfacefeedfacefeedfacefeedface"
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") != "Token "+token:
			http.Error(w, `{"detail":"Invalid token"}`, http.StatusForbidden)
		case r.URL.Path == "/api/dcim/devices/" && r.URL.Query().Get("role") == "leaf":
			_, _ = w.Write([]byte(`{"count": 1, "next": null, "previous": null, "results": [{"id": 7, "name": "leaf1", "platform": {"id": 1, "name": "SONiC", "slug": "sonic"}, "role": {"id": 2, "name": "Leaf", "slug": "leaf"}, "site": {"id": 3, "name": "DC1", "slug": "dc1"}, "primary_ip": {"id": 9, "address": "10.0.1.1/32"}, "tags": []}]}`))
		default:
			_, _ = w.Write([]byte(`{"count": 0, "next": null, "previous": null, "results": []}`))
		}
	}))
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NETBOX_TOKEN", token)
	code, out, errs := run(t, "validate", "-i", "netbox:"+srv.URL+"?role=leaf&ca="+ca, "--format", "yaml")
	if code != exitOK || !strings.Contains(out, "name: leaf1") || !strings.Contains(out, "address: 10.0.1.1") || strings.Contains(out+errs, token) {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	t.Setenv("NETBOX_TOKEN", "wrong")
	if code, _, errs := run(t, "validate", "-i", "netbox:"+srv.URL+"?role=leaf&ca="+ca); code != exitUsage || !strings.Contains(errs, "403 Forbidden") {
		t.Errorf("bad token: exit %d %s", code, errs)
	}
}
