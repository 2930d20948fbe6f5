package lint

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/schema"
)

// checkOptions checks every option of the configuration against the rule
// it is for, selected or not (see OptionValue). It returns the options as
// rules read them.
func checkOptions(all []*Rule, opts map[string]map[string]any) (map[string]map[string]any, error) {
	if len(opts) == 0 {
		return opts, nil
	}
	byID := map[string]*Rule{}
	for _, r := range all {
		byID[r.ID] = r
	}
	out := make(map[string]map[string]any, len(opts))
	for _, id := range slices.Sorted(maps.Keys(opts)) {
		r, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("option for an unknown rule %q (`mcplint rules` lists the rules)", id)
		}
		out[id] = make(map[string]any, len(opts[id]))
		for _, name := range slices.Sorted(maps.Keys(opts[id])) {
			v, err := OptionValue(r, name, opts[id][name])
			if err != nil {
				return nil, fmt.Errorf("option %s.%s: %w", id, name, err)
			}
			out[id][name] = v
		}
	}
	return out, nil
}

// OptionValue checks that rule r has an option called name and converts v,
// a value decoded from JSON or read from the command line, to the Go type of
// the option's default: a rule type-asserts its option as it does its
// default, whichever way the option was set. Numbers convert when exact
// (2.0 to an int default, not 2.5), lists and objects element by element; a
// nil default takes any value. The rule's CheckOption then judges the value.
func OptionValue(r *Rule, name string, v any) (any, error) {
	def, ok := r.Options[name]
	if !ok {
		if len(r.Options) == 0 {
			return nil, fmt.Errorf("rule %s has no options", r.ID)
		}
		return nil, fmt.Errorf("rule %s has no option %q (options: %s)", r.ID, name, strings.Join(slices.Sorted(maps.Keys(r.Options)), ", "))
	}
	out := v
	if def != nil {
		var ok bool
		if out, ok = convertTo(reflect.TypeOf(def), v); !ok {
			return nil, fmt.Errorf("option %s.%s takes a value like its default %s, not %s", r.ID, name, schema.Compact(def), schema.Compact(v))
		}
	}
	if r.CheckOption != nil {
		if err := r.CheckOption(name, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func convertTo(t reflect.Type, v any) (any, bool) {
	if t.Kind() == reflect.Interface {
		return v, true
	}
	if v == nil {
		return nil, false
	}
	rv := reflect.ValueOf(v)
	switch t.Kind() {
	case reflect.String:
		if s, ok := v.(string); ok {
			return reflect.ValueOf(s).Convert(t).Interface(), true
		}
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			return reflect.ValueOf(b).Convert(t).Interface(), true
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if f, ok := schema.Number(v); ok && f == math.Trunc(f) && math.Abs(f) <= 1<<53 && !reflect.Zero(t).OverflowInt(int64(f)) {
			return reflect.ValueOf(int64(f)).Convert(t).Interface(), true
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if f, ok := schema.Number(v); ok && f >= 0 && f == math.Trunc(f) && f <= 1<<53 && !reflect.Zero(t).OverflowUint(uint64(f)) {
			return reflect.ValueOf(uint64(f)).Convert(t).Interface(), true
		}
	case reflect.Float32, reflect.Float64:
		if f, ok := schema.Number(v); ok {
			return reflect.ValueOf(f).Convert(t).Interface(), true
		}
	case reflect.Slice:
		if rv.Kind() != reflect.Slice {
			return nil, false
		}
		out := reflect.MakeSlice(t, rv.Len(), rv.Len())
		for i := range rv.Len() {
			e, ok := convertTo(t.Elem(), rv.Index(i).Interface())
			if !ok {
				return nil, false
			}
			setValue(out.Index(i), e)
		}
		return out.Interface(), true
	case reflect.Map:
		if rv.Kind() != reflect.Map || t.Key().Kind() != reflect.String || rv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		out := reflect.MakeMapWithSize(t, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			e, ok := convertTo(t.Elem(), it.Value().Interface())
			if !ok {
				return nil, false
			}
			val := reflect.New(t.Elem()).Elem()
			setValue(val, e)
			out.SetMapIndex(it.Key().Convert(t.Key()), val)
		}
		return out.Interface(), true
	}
	return nil, false
}

// setValue stores e (nil allowed for interface elements) in dst.
func setValue(dst reflect.Value, e any) {
	if e == nil {
		dst.Set(reflect.Zero(dst.Type()))
		return
	}
	dst.Set(reflect.ValueOf(e))
}
