package promrw

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The Grafana dashboard of the pushed series, generated from the metric
// names above (deploy/grafana/mph-load.json; go test ./loadtest/promrw
// -update writes it). Every panel selects one run by its run_id, the
// dashboard's variable, and adds up the run's shards.

// DashboardRunVar is the query of the run_id variable.
const DashboardRunVar = "label_values(" + MetricRequests + ", run_id)"

type dashboard struct {
	Title         string    `json:"title"`
	UID           string    `json:"uid"`
	Description   string    `json:"description"`
	Tags          []string  `json:"tags"`
	SchemaVersion int       `json:"schemaVersion"`
	Version       int       `json:"version"`
	Editable      bool      `json:"editable"`
	Refresh       string    `json:"refresh"`
	Time          timeRange `json:"time"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

type timeRange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type ref struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

var promDS = ref{Type: "prometheus", UID: "${datasource}"}

type variable struct {
	Name       string `json:"name"`
	Label      string `json:"label"`
	Type       string `json:"type"`
	Query      any    `json:"query"`
	Datasource *ref   `json:"datasource,omitempty"`
	Definition string `json:"definition,omitempty"`
	Refresh    int    `json:"refresh,omitempty"`
	Sort       int    `json:"sort,omitempty"`
}

type panel struct {
	ID          int         `json:"id"`
	Type        string      `json:"type"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Datasource  ref         `json:"datasource"`
	GridPos     gridPos     `json:"gridPos"`
	FieldConfig fieldConfig `json:"fieldConfig"`
	Targets     []Target    `json:"targets"`
}

type gridPos struct {
	H int `json:"h"`
	W int `json:"w"`
	X int `json:"x"`
	Y int `json:"y"`
}

type fieldConfig struct {
	Defaults struct {
		Unit string `json:"unit"`
	} `json:"defaults"`
	Overrides []any `json:"overrides"`
}

// Target is one query of a panel.
type Target struct {
	RefID        string `json:"refId"`
	Expr         string `json:"expr"`
	LegendFormat string `json:"legendFormat"`
	Datasource   ref    `json:"datasource"`
}

// sel is a selector of the chosen run, with extra matchers.
func sel(metric string, extra ...string) string {
	return metric + `{` + strings.Join(append([]string{`run_id="$run_id"`}, extra...), ",") + `}`
}

func rate(metric string, extra ...string) string {
	return "rate(" + sel(metric, extra...) + "[$__rate_interval])"
}

func quantile(q float64, hist, by string) string {
	return fmt.Sprintf("histogram_quantile(%g, sum by (%s) (%s))", q, by, rate(hist+"_bucket"))
}

// dashboardPanels are the panels, in rows of two.
func dashboardPanels() []panel {
	ps := []panel{
		{Title: "Requests/s by endpoint", Description: "All shards of the run added up; every status.", Type: "timeseries", Targets: []Target{
			{Expr: "sum by (endpoint) (" + rate(MetricRequests) + ")", LegendFormat: "{{endpoint}}"}}},
		{Title: "Requests/s by status class", Description: "429 apart from 4xx; error: no answer (transport error or timeout).", Type: "timeseries", Targets: []Target{
			{Expr: "sum by (status_class) (" + rate(MetricRequests) + ")", LegendFormat: "{{status_class}}"}}},
		{Title: "429/s and invalid answers/s by endpoint", Description: "Invalid: answers failing validation (status, Content-Type, schema, RATE-02 on 429s).", Type: "timeseries", Targets: []Target{
			{Expr: "sum by (endpoint) (" + rate(MetricRequests, `status_class="429"`) + ")", LegendFormat: "{{endpoint}} 429"},
			{Expr: "sum by (endpoint) (" + rate(MetricInvalid) + ")", LegendFormat: "{{endpoint}} invalid"}}},
		{Title: "Shards pushing", Description: "Shards of the run whose series arrive (--shard i/n).", Type: "stat", Targets: []Target{
			{Expr: "count(count by (shard) (" + sel(MetricRequests) + "))", LegendFormat: "shards"}}},
		{Title: "Latency p50 and p99 by endpoint (open model)", Description: "From each request's intended send time to the end of its answer.", Type: "timeseries", Targets: []Target{
			{Expr: quantile(0.5, MetricLatency, "le, endpoint"), LegendFormat: "{{endpoint}} p50"},
			{Expr: quantile(0.99, MetricLatency, "le, endpoint"), LegendFormat: "{{endpoint}} p99"}}},
		{Title: "Service latency p99 by endpoint", Description: "From the actual send (what vegeta and k6 report).", Type: "timeseries", Targets: []Target{
			{Expr: quantile(0.99, MetricService, "le, endpoint"), LegendFormat: "{{endpoint}} p99"}}},
		{Title: "Send lag p50 and p99", Description: "Actual send minus intended send: the generator's own delay.", Type: "timeseries", Targets: []Target{
			{Expr: quantile(0.5, MetricLag, "le"), LegendFormat: "p50"},
			{Expr: quantile(0.99, MetricLag, "le"), LegendFormat: "p99"}}},
		{Title: "Mean latency by endpoint (open model)", Description: "Sum over count of the latency histogram.", Type: "timeseries", Targets: []Target{
			{Expr: "sum by (endpoint) (" + rate(MetricLatency+"_sum") + ") / sum by (endpoint) (" + rate(MetricLatency+"_count") + ")", LegendFormat: "{{endpoint}}"}}},
	}
	units := []string{"reqps", "reqps", "reqps", "none", "s", "s", "s", "s"}
	for i := range ps {
		p := &ps[i]
		p.ID, p.Datasource = i+1, promDS
		p.GridPos = gridPos{H: 8, W: 12, X: 12 * (i % 2), Y: 8 * (i / 2)}
		p.FieldConfig.Defaults.Unit, p.FieldConfig.Overrides = units[i], []any{}
		for j := range p.Targets {
			p.Targets[j].RefID, p.Targets[j].Datasource = string(rune('A'+j)), promDS
		}
	}
	return ps
}

// Dashboard is the dashboard's JSON (Grafana's dashboard model, importable
// as is: Dashboards → New → Import).
func Dashboard() ([]byte, error) {
	d := dashboard{Title: "mph load", UID: "mph-load", SchemaVersion: 39, Version: 1, Editable: true, Refresh: "5s",
		Description: "Live figures of mph load runs pushed with --prometheus-rw (docs/load.md). Pick a run by its run_id; shards add up.",
		Tags:        []string{"mph", "load"}, Time: timeRange{From: "now-30m", To: "now"}, Panels: dashboardPanels()}
	d.Templating.List = []variable{
		{Name: "datasource", Label: "Prometheus", Type: "datasource", Query: "prometheus"},
		{Name: "run_id", Label: "run", Type: "query", Datasource: &promDS, Definition: DashboardRunVar, Refresh: 2, Sort: 2,
			Query: map[string]string{"query": DashboardRunVar, "refId": "run_id"}},
	}
	b, err := json.MarshalIndent(d, "", "  ")
	return append(b, '\n'), err
}

// DashboardTargets lists every query of the dashboard's panels.
func DashboardTargets() []Target {
	var out []Target
	for _, p := range dashboardPanels() {
		out = append(out, p.Targets...)
	}
	return out
}
