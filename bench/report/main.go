// Command report turns the raw outputs of bench/run.sh (wrk's text, vegeta
// and k6 JSON summaries, mph's summary.json) into bench/results.json, renders
// bench/RESULTS.md from it and rewrites the bench block of docs/load.md. With only
// -json it renders again from an existing results.json.
//
//	go run ./bench/report -raw DIR -json bench/results.json -md bench/RESULTS.md -readme docs/load.md
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	raw := flag.String("raw", "", "raw directory written by bench/run.sh (empty: read -json instead)")
	jsonPath := flag.String("json", "bench/results.json", "extracted figures (written with -raw, read without)")
	md := flag.String("md", "bench/RESULTS.md", "Markdown report to write")
	readme := flag.String("readme", "", "page whose bench block to rewrite, e.g. docs/load.md (empty: none)")
	flag.Parse()
	if err := run(*raw, *jsonPath, *md, *readme); err != nil {
		fmt.Fprintln(os.Stderr, "bench/report:", err)
		os.Exit(1)
	}
}

func run(raw, jsonPath, md, readme string) error {
	var r *Results
	var err error
	if raw != "" {
		if r, err = collect(raw); err != nil {
			return err
		}
		if err := writeResults(jsonPath, r); err != nil {
			return err
		}
	} else if r, err = readResults(jsonPath); err != nil {
		return err
	}
	if err := os.WriteFile(md, []byte(renderResults(r)), 0o644); err != nil {
		return err
	}
	if readme == "" {
		return nil
	}
	doc, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	out, err := replaceBlock(string(doc), renderReadme(r))
	if err != nil {
		return err
	}
	return os.WriteFile(readme, []byte(out), 0o644)
}

func writeResults(path string, r *Results) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func readResults(path string) (*Results, error) {
	var r Results
	if err := readJSON(path, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
