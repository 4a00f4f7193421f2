package inventory

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
)

// Options change how a source is read. They come from flags (--limit, --defaults) or after a
// `?` in the source (`ansible:hosts.ini?limit=leaves,gpus`, `netbox:https://nb?site=dc1`).
type Options struct {
	// Limit keeps only the devices that Ansible-style patterns select: names or groups,
	// `*` wildcards, `~regex`, `!pattern` to exclude, `&pattern` to intersect; a value
	// without a comma may separate patterns with `:` (`fabric:!spine`), as Ansible's does.
	Limit []string
	// Defaults is an overlay file for an import: connection defaults, recipe, per-device
	// settings (see loadOverlay).
	Defaults string
	// Site, Role and Tag filter NetBox devices (slugs; several values of one are OR-ed).
	Site, Role, Tag []string
	// Status and CableStatus are the NetBox device and cable statuses imported; by default
	// active devices and connected cables, so that planned or offline ones are not audited.
	Status, CableStatus []string
	// CAFile is a PEM bundle NetBox's certificate is checked against, instead of the system's.
	CAFile string
}

// optionKeys are the keys a source string may carry after `?`.
var optionKeys = []string{"limit", "defaults", "site", "role", "tag", "status", "cable_status", "ca"}

// ParseOptions reads `key=value&...` (values may be comma-separated lists).
func ParseOptions(query string) (Options, error) {
	q, err := url.ParseQuery(query)
	if err != nil {
		return Options{}, fmt.Errorf("options after ?: %w", err)
	}
	var o Options
	for key, vals := range q {
		var list []string
		for _, v := range vals {
			for item := range strings.SplitSeq(v, ",") {
				if item = strings.TrimSpace(item); item != "" {
					list = append(list, item)
				}
			}
		}
		switch key {
		case "limit":
			o.Limit = append(o.Limit, list...)
		case "site":
			o.Site = append(o.Site, list...)
		case "role":
			o.Role = append(o.Role, list...)
		case "tag":
			o.Tag = append(o.Tag, list...)
		case "status":
			o.Status = append(o.Status, list...)
		case "cable_status":
			o.CableStatus = append(o.CableStatus, list...)
		case "defaults", "ca":
			if len(vals) != 1 || vals[0] == "" {
				return Options{}, fmt.Errorf("option %s: expected one file", key)
			}
			if key == "ca" {
				o.CAFile = vals[0]
			} else {
				o.Defaults = vals[0]
			}
		case "token":
			return Options{}, fmt.Errorf("the NetBox token is not an option: give it in $NETBOX_TOKEN, which keeps it out of process lists and shell history")
		default:
			return Options{}, fmt.Errorf("unknown option %q after ? (expected %s)", key, strings.Join(optionKeys, ", "))
		}
	}
	return o, nil
}

// splitOptions separates `?options` from a source. A file that exists with the `?` in its
// name is that file.
func splitOptions(spec string) (string, Options, error) {
	i := strings.LastIndexByte(spec, '?')
	if i < 0 {
		return spec, Options{}, nil
	}
	if _, err := os.Stat(spec); err == nil {
		return spec, Options{}, nil
	}
	o, err := ParseOptions(spec[i+1:])
	if err != nil {
		// The source without its query: a query that went wrong may hold a token.
		return "", Options{}, fmt.Errorf("inventory %q (its options not shown): %w", spec[:i], err)
	}
	return spec[:i], o, nil
}

// check refuses options the source cannot use.
func (o Options) check(kind string) error {
	if kind != SourceNetBox {
		for name, set := range map[string]bool{"site": len(o.Site) > 0, "role": len(o.Role) > 0, "tag": len(o.Tag) > 0,
			"status": len(o.Status) > 0, "cable_status": len(o.CableStatus) > 0, "ca": o.CAFile != ""} {
			if set {
				return fmt.Errorf("option %s is for netbox: sources", name)
			}
		}
	}
	if kind == "" && o.Defaults != "" {
		return errors.New("--defaults is for imported sources (clab:, ansible:, netbox:); a roceaudit inventory has its own defaults:")
	}
	if slices.Contains(o.Limit, "") {
		return errors.New("--limit: empty pattern")
	}
	return nil
}
