package api

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// ProfileReference renders the default profile as a Markdown table, one row
// per key: its dotted name, its default (the lenient reading) and what it
// decides, from the comment above it in profile.default.yaml. The
// profile table of docs/profile.md is this table (a test keeps it current).
func ProfileReference() (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(defaultProfileYAML, &doc); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| key | default | what the document leaves open, what the key decides |\n| :- | :- | :- |\n")
	var walk func(n *yaml.Node, path, inherited string)
	walk = func(n *yaml.Node, path, inherited string) {
		previous := inherited // a key without a comment of its own shares the one above it
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := join(path, k.Value)
			about := commentText(k.HeadComment)
			if v.Kind == yaml.MappingNode && len(v.Content) > 0 && !oneValue(key) {
				walk(v, key, about)
				continue
			}
			if about == "" {
				about = previous
			}
			previous = about
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", key, defaultText(v), mdCell(about))
		}
	}
	walk(doc.Content[0], "", "")
	return b.String(), nil
}

// oneValue names the maps that are one value: wire names, query
// parameters, extra members and pointers given together.
func oneValue(key string) bool {
	for _, s := range []string{".fields", ".params", ".extra", ".lookupVoucher"} {
		if strings.HasSuffix(key, s) {
			return true
		}
	}
	return false
}

// commentText joins a YAML head comment into one line (section rules such
// as "# --- ... ---" dropped).
func commentText(c string) string {
	var parts []string
	for _, line := range strings.Split(c, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "#"))
		if line == "" || strings.HasPrefix(line, "---") {
			continue
		}
		parts = append(parts, line)
	}
	return strings.Join(parts, " ")
}

// defaultText renders a default value for the table.
func defaultText(v *yaml.Node) string {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Value == "" {
			return `""`
		}
		return "`" + v.Value + "`"
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			return "`[]`"
		}
	}
	b, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	var flat []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		flat = append(flat, strings.TrimSpace(line))
	}
	return "`" + strings.Join(flat, ", ") + "`"
}

// mdCell keeps a comment from breaking the table.
func mdCell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}
