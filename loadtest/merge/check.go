package merge

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/merchant-harness/mph/loadtest/summary"
)

// Refusal lists why inputs do not form one run.
type Refusal struct{ Reasons []string }

func (e *Refusal) Error() string {
	return "merge refused (use --force to merge anyway): " + strings.Join(e.Reasons, "; ")
}

// checkMergeable returns the reasons why the reports (paths alongside) are
// not the shards of one run: same scenario, target and schedule, the same
// --start-at, and shard indices that are disjoint and complete.
func checkMergeable(reps []*summary.Report, paths []string) []string {
	var why []string
	differ := func(what string, get func(*summary.Report) string) {
		seen := map[string][]string{}
		var order []string
		for i, r := range reps {
			v := get(r)
			if _, ok := seen[v]; !ok {
				order = append(order, v)
			}
			seen[v] = append(seen[v], paths[i])
		}
		if len(order) > 1 {
			parts := make([]string, 0, len(order))
			for _, v := range order {
				parts = append(parts, fmt.Sprintf("%q in %s", v, strings.Join(seen[v], ", ")))
			}
			why = append(why, fmt.Sprintf("%s differs: %s", what, strings.Join(parts, " vs ")))
		}
	}
	differ("scenario", func(r *summary.Report) string { return r.Scenario })
	differ("target", func(r *summary.Report) string { return r.Target })
	differ("schedule", func(r *summary.Report) string { return baseSchedule(r.Schedule) })
	var missing []string
	for i, r := range reps {
		if r.Plan == nil {
			missing = append(missing, paths[i])
		}
	}
	if len(missing) > 0 {
		return append(why, fmt.Sprintf("no run plan (shard, --start-at) in %s: not written by a sharded mph load", strings.Join(missing, ", ")))
	}
	differ("start (--start-at)", func(r *summary.Report) string {
		if r.Plan.StartAt.IsZero() {
			return "none"
		}
		return r.Plan.StartAt.UTC().Format(time.RFC3339Nano)
	})
	differ("shard count", func(r *summary.Report) string { return fmt.Sprint(r.Plan.ShardCount) })
	return append(why, shardCoverage(reps, paths)...)
}

// shardCoverage checks that the shard indices are disjoint and complete.
func shardCoverage(reps []*summary.Report, paths []string) []string {
	var why []string
	n := reps[0].Plan.ShardCount
	byIndex := map[int][]string{}
	for i, r := range reps {
		byIndex[r.Plan.ShardIndex] = append(byIndex[r.Plan.ShardIndex], paths[i])
	}
	var dup []string
	for idx, ps := range byIndex {
		if len(ps) > 1 {
			dup = append(dup, fmt.Sprintf("shard %d/%d in %s", idx, n, strings.Join(ps, ", ")))
		}
	}
	sort.Strings(dup)
	if len(dup) > 0 {
		why = append(why, "shards overlap: "+strings.Join(dup, "; "))
	}
	var absent []string
	for i := 0; i < n; i++ {
		if len(byIndex[i]) == 0 {
			absent = append(absent, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(absent) > 0 {
		why = append(why, "shards missing: "+strings.Join(absent, ", "))
	}
	return why
}

// baseSchedule strips the shard suffix from a schedule description.
func baseSchedule(s string) string { return strings.SplitN(s, " (shard", 2)[0] }
