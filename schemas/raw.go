package schemas

import "io/fs"

// Files lists every embedded schema file, common.json (shared $defs only)
// included, sorted: for tools that re-publish the schemas, such as the
// OpenAPI export.
func Files() []string {
	entries, _ := fs.ReadDir(files, ".")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Raw returns one embedded schema file as written.
func Raw(name string) ([]byte, error) { return files.ReadFile(name) }
