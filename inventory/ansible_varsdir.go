package inventory

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// group_vars/ and host_vars/ next to the inventory file, read as Ansible's host_group_vars
// vars plugin reads them (only the inventory's directory: roceaudit runs no playbook, so
// there is no playbook directory to look in as well).

const (
	ansGroupVarsDir = "group_vars"
	ansHostVarsDir  = "host_vars"
	ansVaultHeader  = "$ANSIBLE_VAULT;"
)

// ansVarsExtensions are Ansible's YAML_FILENAME_EXTENSIONS; a file without one is YAML too.
var ansVarsExtensions = []string{".yml", ".yaml", ".json"}

// readVarsDirs reads the group_vars and host_vars files of every group a host is in and of
// every host.
func (a *ansState) readVarsDirs() {
	base := filepath.Dir(a.p.file)
	groupDir, hostDir := a.varsDir(base, ansGroupVarsDir), a.varsDir(base, ansHostVarsDir)
	if groupDir != "" {
		seen := map[string]bool{}
		for _, name := range a.order {
			for _, g := range a.hostGroups(a.hosts[name]) {
				if !seen[g.name] {
					seen[g.name] = true
					g.fileVars = a.varsFor(groupDir, g.name)
				}
			}
		}
	}
	if hostDir != "" {
		for _, name := range a.order {
			a.hosts[name].fileVars = a.varsFor(hostDir, name)
		}
	}
}

// varsDir is base/sub when it is a directory, else "" (with a warning when it is a file, as
// Ansible gives).
func (a *ansState) varsDir(base, sub string) string {
	dir := filepath.Join(base, sub)
	switch st, err := os.Stat(dir); {
	case err != nil:
		return ""
	case !st.IsDir():
		a.p.warnIn(dir, 0, 0, "not a directory: its variables are skipped (Ansible reads %s/ as a directory of files named after groups or hosts)", sub)
		return ""
	}
	return dir
}

// varsFor merges the variables of the files Ansible reads for name, later files winning.
func (a *ansState) varsFor(dir, name string) map[string]field {
	files, err := ansVarsFiles(dir, name)
	if err != nil {
		a.p.errs.addIn(dir, 0, 0, fmt.Errorf("read variables of %q: %w", name, err))
		return nil
	}
	vars := map[string]field{}
	for _, f := range files {
		for _, v := range a.varsFile(f) {
			vars[v.key.Value] = v
		}
	}
	return vars
}

// ansVarsFiles lists the files Ansible reads for name under dir, in order: the first of
// NAME, NAME.yml, NAME.yaml and NAME.json that exists; a directory is read whole.
// A name that is a path (a chroot host such as /srv/jail) has no file, as in Ansible;
// neither has one that would leave dir.
func ansVarsFiles(dir, name string) ([]string, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, nil
	}
	for _, ext := range append([]string{""}, ansVarsExtensions...) {
		path := filepath.Join(dir, name+ext)
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			return nil, fmt.Errorf("%s: %w", path, err)
		case st.IsDir():
			return ansVarsDirFiles(path)
		}
		return []string{path}, nil
	}
	return nil, nil
}

// ansVarsDirFiles is every vars file under dir, sorted by name, descending into
// subdirectories without an extension; hidden files and backups (NAME~) are skipped, and
// files with an extension other than Ansible's.
func ansVarsDirFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") {
			continue
		}
		path, ext := filepath.Join(dir, name), filepath.Ext(name)
		st, err := os.Stat(path) // follows a symlink, as Ansible does
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case st.IsDir() && ext == "":
			sub, err := ansVarsDirFiles(path)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		case st.Mode().IsRegular() && (ext == "" || slices.Contains(ansVarsExtensions, ext)):
			out = append(out, path)
		}
	}
	return out, nil
}

// varsFile reads one vars file: a YAML (or JSON) mapping of variables. An empty file has
// none, as in Ansible; an ansible-vault file cannot be read and is skipped with a warning.
func (a *ansState) varsFile(file string) []field {
	p := a.p
	data, err := os.ReadFile(file)
	if err != nil {
		p.errs.addIn(file, 0, 0, fmt.Errorf("read Ansible variables: %w", err))
		return nil
	}
	if bytes.HasPrefix(data, []byte(ansVaultHeader)) {
		p.warnIn(file, 1, 1, "encrypted with ansible-vault, which roceaudit cannot decrypt: its variables are skipped (set the variables roceaudit reads in a file that is not encrypted)")
		return nil
	}
	root := p.varsDocument(file, data)
	if root == nil {
		return nil
	}
	if r := deref(root); r.Kind != yaml.MappingNode {
		p.errorf(root, "expected a mapping of variables (name: value), got %s", describe(root))
		return nil
	}
	vars, _ := p.entries(root, "the variables")
	return vars.list
}

// varsDocument parses data as one YAML document, recording every node's file so that
// errors and warnings about its variables name it; nil when it is empty.
func (p *importParser) varsDocument(file string, data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, next yaml.Node
	err := dec.Decode(&doc)
	if err == nil {
		if err = dec.Decode(&next); err == nil {
			p.errs.addIn(file, next.Line, next.Column, errors.New("a second YAML document (expected one mapping of variables per file)"))
			return nil
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		line, col, e := syntaxPlace(data, err)
		p.errs.addIn(file, line, col, e)
		return nil
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return nil
	}
	if p.files == nil {
		p.files = map[*yaml.Node]string{}
	}
	var mark func(*yaml.Node)
	mark = func(n *yaml.Node) {
		p.files[n] = file
		for _, c := range n.Content {
			mark(c)
		}
	}
	mark(doc.Content[0])
	return doc.Content[0]
}
