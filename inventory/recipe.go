package inventory

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/roceaudit/roceaudit/recipe"
)

// recipe merges the inventory's `recipe:` overrides over recipe.Default() and validates the
// result. Keys are the yaml tags of recipe.Recipe, so a field added there is accepted here
// without a change.
func (p *parser) recipe(n *yaml.Node) recipe.Recipe {
	r := recipe.Default()
	if isNull(n) {
		return r
	}
	rv := reflect.ValueOf(&r).Elem()
	index := map[string]int{}
	var keys []string
	for i := range rv.NumField() {
		tag, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("yaml"), ",")
		index[tag] = i
		keys = append(keys, tag)
	}
	m, ok := p.mapping(n, "recipe", keys, nil)
	if !ok {
		return r
	}
	before := len(p.errs.list)
	for key, f := range m {
		p.setRecipeValue(rv.Field(index[key]), f.val, key)
	}
	if len(p.errs.list) > before {
		return r // Validate would only restate them against the defaults
	}
	if err := r.Validate(); err != nil {
		// Validate names the key ("recipe.roce_priority: ..."): point at it when the file
		// sets it, otherwise at recipe: (the conflict is with a default).
		at := n
		if rest, ok := strings.CutPrefix(err.Error(), "recipe."); ok {
			key, _, _ := strings.Cut(rest, ":")
			if f, ok := m[key]; ok {
				at = f.val
			} else if _, ok := index[key]; ok {
				err = fmt.Errorf("%w (%s is not set here and keeps its default)", err, key)
			}
		}
		p.errs.add(at.Line, at.Column, err)
	}
	return r
}

func (p *parser) setRecipeValue(fv reflect.Value, n *yaml.Node, key string) {
	key = "recipe." + key
	switch {
	case fv.Kind() == reflect.Int:
		// Ranges are Validate's job; here only the type.
		if v, ok := p.integer(n, key, math.MinInt32, math.MaxInt32, "an integer"); ok {
			fv.SetInt(int64(v))
		}
	case fv.Kind() == reflect.String:
		if v, ok := p.str(n, key, "a string"); ok {
			fv.SetString(v)
		}
	case fv.Kind() == reflect.Bool:
		if v, ok := p.boolean(n, key); ok {
			fv.SetBool(v)
		}
	case fv.Kind() == reflect.Float64:
		if v, ok := p.float(n, key); ok {
			fv.SetFloat(v)
		}
	case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Int:
		items, ok := p.list(n, key, "a list of integers")
		if !ok {
			return
		}
		vals := reflect.MakeSlice(fv.Type(), 0, len(items))
		for _, it := range items {
			v, ok := p.integer(it, key, math.MinInt32, math.MaxInt32, "an integer")
			if !ok {
				return
			}
			vals = reflect.Append(vals, reflect.ValueOf(v).Convert(fv.Type().Elem()))
		}
		fv.Set(vals)
	default:
		// A recipe field of a new kind needs a case here; TestRecipeEveryKey catches it.
		p.errorf(n, "%s: roceaudit cannot read this key from an inventory yet (field type %s)", key, fv.Type())
	}
}
