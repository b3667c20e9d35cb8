package discover

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/api"
	"gopkg.in/yaml.v3"
)

// Finding is one profile key the discovery settled, how and how surely.
type Finding struct {
	Key   string // dotted path, e.g. issuance.cardPointer
	Value any    // string, int, bool or map[string]string
	How   string // how it was found
	Sure  string // high, medium or low
}

// Undetermined is a key the discovery tried but could not settle.
type Undetermined struct {
	Key, Why string
}

// Render writes the proposed profile: the default profile's structure and
// comments with every finding set and annotated, the keys tried but not
// settled listed under undetermined (a spec depending on one reaches no
// verdict instead of judging by a default the target may not share) and
// annotated, and the others marked as not discovered.
func Render(header []string, found []Finding, undetermined []Undetermined) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(api.DefaultProfileYAML(), &doc); err != nil {
		return nil, err
	}
	root := doc.Content[0]
	touched := map[string]bool{}
	for _, f := range found {
		if err := setKey(root, f.Key, f.Value, fmt.Sprintf("found: %s (sure: %s)", f.How, f.Sure)); err != nil {
			return nil, err
		}
		touched[f.Key] = true
	}
	var list []Undetermined
	for _, u := range undetermined {
		if touched[u.Key] {
			continue
		}
		if err := annotate(root, u.Key, "undetermined: "+u.Why+" (listed under undetermined)"); err != nil {
			return nil, err
		}
		touched[u.Key] = true
		list = append(list, u)
	}
	if err := setUndetermined(root, list); err != nil {
		return nil, err
	}
	touched[undeterminedKey] = true
	markRest(root, "", touched)
	doc.HeadComment = strings.Join(header, "\n")
	root.HeadComment = ""
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// lookup finds the key and value nodes of a dotted path.
func lookup(root *yaml.Node, key string) (*yaml.Node, *yaml.Node, error) {
	cur := root
	var k *yaml.Node
	for _, part := range strings.Split(key, ".") {
		if cur.Kind != yaml.MappingNode {
			return nil, nil, fmt.Errorf("profile key %s: %s is not a mapping", key, part)
		}
		var next *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == part {
				k, next = cur.Content[i], cur.Content[i+1]
				break
			}
		}
		if next == nil {
			return nil, nil, fmt.Errorf("profile key %s: no %s in the default profile", key, part)
		}
		cur = next
	}
	return k, cur, nil
}

func setKey(root *yaml.Node, key string, value any, comment string) error {
	k, v, err := lookup(root, key)
	if err != nil {
		return err
	}
	switch x := value.(type) {
	case map[string]string:
		keys := make([]string, 0, len(x))
		for kk := range x {
			keys = append(keys, kk)
		}
		sort.Strings(keys)
		*v = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, kk := range keys {
			v.Content = append(v.Content, str(kk), str(x[kk]))
		}
		k.LineComment = comment
		return nil
	case []string:
		*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, e := range x {
			v.Content = append(v.Content, str(e))
		}
	case string:
		*v = *str(x)
	case int:
		*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x)}
	case bool:
		*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	default:
		return fmt.Errorf("profile key %s: unsupported value %T", key, value)
	}
	v.LineComment = comment
	return nil
}

// str is a string scalar, quoted when it would otherwise read as another type.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	var probe any
	if s == "" || yaml.Unmarshal([]byte(s), &probe) != nil || fmt.Sprint(probe) != s || strings.ContainsAny(s, "{}#:") {
		n.Style = yaml.DoubleQuotedStyle
	}
	if _, isStr := probe.(string); !isStr {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func annotate(root *yaml.Node, key, comment string) error {
	k, v, err := lookup(root, key)
	if err != nil {
		return err
	}
	if v.Kind == yaml.ScalarNode {
		v.LineComment = comment
	} else {
		k.LineComment = comment
	}
	return nil
}

// markRest annotates every scalar leaf nobody touched.
func markRest(n *yaml.Node, prefix string, touched map[string]bool) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := strings.TrimPrefix(prefix+"."+k.Value, ".")
		if touched[key] {
			continue
		}
		if v.Kind == yaml.MappingNode && len(v.Content) > 0 && !isLeafMap(key) {
			markRest(v, key, touched)
			continue
		}
		c := "not discovered: default kept"
		if v.Kind == yaml.ScalarNode || len(v.Content) == 0 {
			v.LineComment = c
		} else {
			k.LineComment = c
		}
	}
}

// isLeafMap names the mappings that are one value (maps of names).
func isLeafMap(key string) bool {
	return strings.HasSuffix(key, ".params") || strings.HasSuffix(key, ".extra")
}

// undeterminedKey is the profile's list of keys discovery could not settle.
const undeterminedKey = "undetermined"

// setUndetermined writes the keys, sorted, each with why as its comment.
func setUndetermined(root *yaml.Node, list []Undetermined) error {
	sort.Slice(list, func(i, j int) bool { return list[i].Key < list[j].Key })
	_, v, err := lookup(root, undeterminedKey)
	if err != nil {
		return err
	}
	*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	if len(list) == 0 {
		v.Style = yaml.FlowStyle
	}
	for _, u := range list {
		item := str(u.Key)
		item.LineComment = u.Why
		v.Content = append(v.Content, item)
	}
	return nil
}
