package inventory

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/topology"
)

// A NetBox instance read as an inventory (`-i netbox:https://HOST`): its active devices
// (filtered by site, role or tag), each device's primary IP, its platform mapped to a
// roceaudit platform, and its connected cables between two imported devices as declared
// links. Planned, staged or offline devices and planned cables are not in the fabric yet
// (?status=active,planned and ?cable_status=connected,planned take them too). Read-only:
// only GET requests, with the API token from $NETBOX_TOKEN, which is never printed.

// NetBoxTokenEnv holds the NetBox API token.
const NetBoxTokenEnv = "NETBOX_TOKEN"

// The statuses imported when the source does not say: NetBox's for a device in service and
// a cable patched in.
const (
	netboxDeviceStatus = "active"
	netboxCableStatus  = "connected"
)

const (
	netboxTimeout  = 30 * time.Second
	netboxPageSize = 250
	netboxBatch    = 50 // device ids per interfaces/cables request
)

// netboxRef is NetBox's nested representation of a related object.
type netboxRef struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// netboxStatus is a choice field: {"value": "active", "label": "Active"}.
type netboxStatus struct {
	Value string `json:"value"`
}

func orDefault(vals []string, def string) []string {
	if len(vals) == 0 {
		return []string{def}
	}
	return vals
}

// statusIn is true when s is one of want; a NetBox that sends no status is not second-guessed.
func statusIn(s *netboxStatus, want []string) bool {
	return s == nil || slices.Contains(want, s.Value)
}

type netboxDevice struct {
	ID         int           `json:"id"`
	Name       *string       `json:"name"`
	Platform   *netboxRef    `json:"platform"`
	Role       *netboxRef    `json:"role"`
	DeviceRole *netboxRef    `json:"device_role"` // before NetBox 4.0
	Site       *netboxRef    `json:"site"`
	Tags       []netboxRef   `json:"tags"`
	Status     *netboxStatus `json:"status"`
	PrimaryIP  *struct {
		Address string `json:"address"`
	} `json:"primary_ip"`
}

type netboxInterface struct {
	ID     int       `json:"id"`
	Name   string    `json:"name"`
	Device netboxRef `json:"device"`
}

type netboxTermination struct {
	ObjectType string           `json:"object_type"`
	ObjectID   int              `json:"object_id"`
	Object     *netboxInterface `json:"object"`
}

type netboxCable struct {
	ID     int                 `json:"id"`
	A      []netboxTermination `json:"a_terminations"`
	B      []netboxTermination `json:"b_terminations"`
	Status *netboxStatus       `json:"status"`
}

type netboxClient struct {
	base   *url.URL
	token  string
	client *http.Client
}

func newNetBoxClient(raw string, opts Options, token string) (*netboxClient, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("netbox:%s: expected netbox:https://HOST[/PATH]", raw)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("netbox:%s: plain http would send the API token in the clear; use https://", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment, u.User = "", "", nil
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if opts.CAFile != "" {
		pem, err := os.ReadFile(opts.CAFile)
		if err != nil {
			return nil, fmt.Errorf("netbox CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("netbox CA file %s: no PEM certificate in it", opts.CAFile)
		}
		tlsConf.RootCAs = pool
	}
	tr := &http.Transport{TLSClientConfig: tlsConf, Proxy: http.ProxyFromEnvironment, TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: netboxTimeout}
	c := &http.Client{Transport: tr, Timeout: netboxTimeout, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != u.Host {
			return fmt.Errorf("redirect to another host (%s) refused: the token is only for %s", req.URL.Host, u.Host)
		}
		return nil
	}}
	return &netboxClient{base: u, token: token, client: c}, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// list GETs every page of an API list. A page's `next` gives the query of the next page; it
// is asked of the configured NetBox, whatever host or scheme the link names: behind a
// proxy NetBox often names itself (http://netbox.internal:8000), and the token goes to the
// configured host only.
func list[T any](ctx context.Context, c *netboxClient, path string, q url.Values) ([]T, error) {
	q = maps.Clone(q)
	q.Set("limit", strconv.Itoa(netboxPageSize))
	next := c.base.JoinPath(path)
	next.RawQuery = q.Encode()
	var out []T
	for page := 0; next != nil; page++ {
		if page > 100000 {
			return nil, fmt.Errorf("GET %s: too many pages", path)
		}
		var body struct {
			Next    *string `json:"next"`
			Results []T     `json:"results"`
		}
		if err := c.get(ctx, next, &body); err != nil {
			return nil, err
		}
		out = append(out, body.Results...)
		next = nil
		if body.Next != nil && *body.Next != "" {
			u, err := url.Parse(*body.Next)
			if err != nil || u.RawQuery == "" {
				return nil, fmt.Errorf("GET %s: next page %q is not a page link", path, *body.Next)
			}
			next = c.base.JoinPath(path)
			next.RawQuery = u.RawQuery
		}
	}
	return out, nil
}

func (c *netboxClient) get(ctx context.Context, u *url.URL, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u.Path, err)
	}
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		scheme := "Token"
		if strings.HasPrefix(c.token, "nbt_") {
			scheme = "Bearer" // NetBox 4.5 v2 tokens
		}
		req.Header.Set("Authorization", scheme+" "+c.token)
	}
	path := "/" + strings.TrimPrefix(u.Path, "/")
	resp, err := c.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is said once, without its query
		}
		var unknownCA x509.UnknownAuthorityError
		var verify *tls.CertificateVerificationError
		if errors.As(err, &unknownCA) || errors.As(err, &verify) {
			return fmt.Errorf("GET %s: %w (a NetBox certificate from a private CA: give the CA with ?ca=FILE)", path, err)
		}
		return fmt.Errorf("GET %s: %w", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		msg := fmt.Sprintf("GET %s: %s", path, resp.Status)
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			msg += fmt.Sprintf(" (set $%s to an API token with read access)", NetBoxTokenEnv)
		}
		return errors.New(msg)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 256<<20)).Decode(into); err != nil {
		return fmt.Errorf("GET %s: not a NetBox API answer: %w", path, err)
	}
	return nil
}

func loadNetBox(raw string, platforms Platforms, env inventoryEnv, ov *overlay, opts Options) (*Inventory, error) {
	c, err := newNetBoxClient(raw, opts, os.Getenv(NetBoxTokenEnv))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	return c.inventory(ctx, platforms, env, ov, opts)
}

func (c *netboxClient) inventory(ctx context.Context, platforms Platforms, env inventoryEnv, ov *overlay, opts Options) (*Inventory, error) {
	where := c.base.String()
	wrap := func(err error) error { return fmt.Errorf("netbox %s: %w", where, err) }
	devStatus, cableStatus := orDefault(opts.Status, netboxDeviceStatus), orDefault(opts.CableStatus, netboxCableStatus)
	q := url.Values{}
	for key, vals := range map[string][]string{"site": opts.Site, "role": opts.Role, "tag": opts.Tag, "status": devStatus} {
		for _, v := range vals {
			q.Add(key, v)
		}
	}
	// NetBox filters by status; what comes back is checked too, as an older or proxied
	// NetBox may ignore a filter it does not know.
	devs, err := list[netboxDevice](ctx, c, "/api/dcim/devices/", q)
	if err != nil {
		return nil, wrap(err)
	}
	devs = slices.DeleteFunc(devs, func(d netboxDevice) bool { return !statusIn(d.Status, devStatus) })
	p, err := newImportParser(where, platforms, env)
	if err != nil {
		return nil, err
	}
	p.ov, p.opts = ov, opts
	var imported []importedDevice
	byID := map[int]string{}
	unmapped := map[string][]string{} // devices left out by platform slug ("" for none)
	for _, d := range devs {
		if dev, ok := p.netboxDevice(d, unmapped); ok {
			imported = append(imported, dev)
			byID[d.ID] = dev.spec.Name
		}
	}
	p.warnUnmapped(unmapped)
	links, err := c.links(ctx, p, byID, cableStatus)
	if err != nil {
		return nil, wrap(err)
	}
	none := "no device to audit: NetBox has no device"
	if len(q) > 0 {
		none += " matching " + q.Encode()
	}
	if len(devs) > 0 {
		none = fmt.Sprintf("no device to audit: none of the %d devices has a platform roceaudit audits (map NetBox platform slugs with platforms: in --defaults)", len(devs))
	}
	inv, extra := p.inventory(&yaml.Node{}, imported, links, none)
	return p.result(inv, extra)
}

// netboxDevice maps one NetBox device; ok is false for one that is left out (with a warning,
// or listed in unmapped by its platform slug for warnUnmapped).
func (p *importParser) netboxDevice(d netboxDevice, unmapped map[string][]string) (importedDevice, bool) {
	if d.Name == nil || *d.Name == "" {
		p.warnf(nil, "device #%d left out: it has no name", d.ID)
		return importedDevice{}, false
	}
	name := *d.Name
	what := fmt.Sprintf("device %q", name)
	slug := ""
	if d.Platform != nil {
		slug = d.Platform.Slug
	}
	platform, ok := p.netboxPlatform(slug)
	switch {
	case slug == "" || !ok:
		unmapped[slug] = append(unmapped[slug], name)
		return importedDevice{}, false
	case platform == platformNone:
		return importedDevice{}, false
	}
	if err := validDeviceName(name); err != nil {
		p.warnf(nil, "%s left out: %v", what, err)
		return importedDevice{}, false
	}
	at := &yaml.Node{}
	role, ok := p.roleOf(platform, at, what)
	if !ok {
		return importedDevice{}, false
	}
	dev := importedDevice{at: at, spec: DeviceSpec{Name: name, Role: role, Platform: platform, Address: name}}
	if d.PrimaryIP != nil && d.PrimaryIP.Address != "" {
		addr, _, _ := strings.Cut(d.PrimaryIP.Address, "/")
		dev.spec.Address = addr
	} else if p.ov.address(name) == nil {
		p.warnf(nil, "%s has no primary IP in NetBox: reaching it by its name (or give it an address in --defaults)", what)
	}
	if err := validAddress(dev.spec.Address); err != nil {
		p.warnf(nil, "%s left out: address: %v", what, err)
		return importedDevice{}, false
	}
	for _, r := range []*netboxRef{d.Site, d.Role, d.DeviceRole, d.Platform} {
		if r != nil && r.Slug != "" {
			dev.groups = append(dev.groups, r.Slug)
		}
	}
	for _, t := range d.Tags {
		dev.groups = append(dev.groups, t.Slug)
	}
	return dev, true
}

// netboxPlatform maps a platform slug: the overlay's platforms: first, then a roceaudit
// platform of that name, then an Ansible network OS name the registry knows.
func (p *importParser) netboxPlatform(slug string) (string, bool) {
	if p.ov != nil {
		if v, ok := p.ov.platforms[slug]; ok {
			return v, true
		}
	}
	if slug == "" || p.platforms == nil {
		return "", false
	}
	if _, ok := p.platforms.Role(slug); ok {
		return slug, true
	}
	if v, ok := p.platforms.AnsibleNetworkOS()[slug]; ok {
		return v, true
	}
	return "", false
}

// links reads the cables between imported devices' interfaces.
func (c *netboxClient) links(ctx context.Context, p *importParser, byID map[int]string, status []string) ([]topology.Link, error) {
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, strconv.Itoa(id))
	}
	ifaces := map[int]netboxInterface{}
	var cables []netboxCable
	seen := map[int]bool{}
	for start := 0; start < len(ids); start += netboxBatch {
		batch := ids[start:min(start+netboxBatch, len(ids))]
		q := url.Values{"device_id": batch}
		is, err := list[netboxInterface](ctx, c, "/api/dcim/interfaces/", q)
		if err != nil {
			return nil, err
		}
		for _, i := range is {
			ifaces[i.ID] = i
		}
		cs, err := list[netboxCable](ctx, c, "/api/dcim/cables/", url.Values{"device_id": batch, "status": status})
		if err != nil {
			return nil, err
		}
		for _, cb := range cs {
			if !seen[cb.ID] && statusIn(cb.Status, status) {
				seen[cb.ID] = true
				cables = append(cables, cb)
			}
		}
	}
	end := func(ts []netboxTermination) (topology.PortRef, bool) {
		if len(ts) != 1 || ts[0].ObjectType != "dcim.interface" {
			return topology.PortRef{}, false
		}
		i, ok := ifaces[ts[0].ObjectID]
		if !ok && ts[0].Object != nil {
			i, ok = *ts[0].Object, true
		}
		dev, imported := byID[i.Device.ID]
		if !ok || !imported || topology.ValidName(i.Name) != nil {
			return topology.PortRef{}, false
		}
		return topology.PortRef{Device: dev, Interface: i.Name}, true
	}
	var set linkSet
	for _, cb := range cables {
		a, okA := end(cb.A)
		b, okB := end(cb.B)
		if okA && okB {
			at := &yaml.Node{}
			p.addLink(&set, a, b, at, at)
		}
	}
	return set.links, nil
}

// warnUnmapped warns once per platform slug of the devices left out for it (a NetBox of 300
// Ubuntu servers is one line, not 300), naming a few.
func (p *importParser) warnUnmapped(unmapped map[string][]string) {
	for _, slug := range slices.Sorted(maps.Keys(unmapped)) {
		names := unmapped[slug]
		which := fmt.Sprintf("device %q", names[0])
		if len(names) > 1 {
			shown := names[:min(3, len(names))]
			which = fmt.Sprintf("%d devices (%s", len(names), strings.Join(shown, ", "))
			if len(names) > len(shown) {
				which += ", ..."
			}
			which += ")"
		}
		if slug == "" {
			has := "it has"
			if len(names) > 1 {
				has = "they have"
			}
			p.warnf(nil, "%s left out: %s no platform in NetBox (map one with platforms: in --defaults, or set it in NetBox)", which, has)
			continue
		}
		p.warnf(nil, "%s left out: NetBox platform %q is not one roceaudit knows (map it with platforms: {%s: PLATFORM} in --defaults)", which, slug, slug)
	}
}
