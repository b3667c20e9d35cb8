// Package k8s holds the Kubernetes manifests of a distributed `mph load`;
// its tests check them against the Kubernetes API types and run their
// shards locally the way the Indexed Job would.
package k8s

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// manifests decodes every document of deploy/k8s/*.yaml strictly into its
// Kubernetes API type: an unknown field or kind fails.
func manifests(t *testing.T) (jobs map[string]*batchv1.Job, other []string) {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	jobs = map[string]*batchv1.Job{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var doc map[string]any
			if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if doc == nil {
				continue
			}
			js, err := json.Marshal(doc)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			kind := fmt.Sprint(doc["apiVersion"], "/", doc["kind"])
			var obj any
			switch kind {
			case "batch/v1/Job":
				obj = &batchv1.Job{}
			case "v1/ConfigMap":
				obj = &corev1.ConfigMap{}
			case "v1/Secret":
				obj = &corev1.Secret{}
			case "v1/PersistentVolumeClaim":
				obj = &corev1.PersistentVolumeClaim{}
			default:
				t.Fatalf("%s: unexpected kind %s", f, kind)
			}
			jd := json.NewDecoder(bytes.NewReader(js))
			jd.DisallowUnknownFields()
			if err := jd.Decode(obj); err != nil {
				t.Fatalf("%s: %s does not decode strictly: %v", f, kind, err)
			}
			if j, ok := obj.(*batchv1.Job); ok {
				jobs[j.Name] = j
			} else {
				other = append(other, kind)
			}
		}
	}
	return jobs, other
}

// arg returns the value of --name=value in args ("" when absent).
func arg(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

func container(t *testing.T, j *batchv1.Job) corev1.Container {
	t.Helper()
	if len(j.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("job %s: %d containers, want 1", j.Name, len(j.Spec.Template.Spec.Containers))
	}
	return j.Spec.Template.Spec.Containers[0]
}

func envOf(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

var shardArg = regexp.MustCompile(`^\$\(JOB_COMPLETION_INDEX\)/(\d+)$`)

// The shard Job is an Indexed Job whose every pod runs its own shard of one
// schedule from one common instant, writing where the merge Job reads.
func TestIndexedJobWiring(t *testing.T) {
	jobs, other := manifests(t)
	shard, merge := jobs["mph-load"], jobs["mph-load-merge"]
	if shard == nil || merge == nil {
		t.Fatalf("jobs %v, want mph-load and mph-load-merge", jobs)
	}
	if len(other) != 3 {
		t.Errorf("other objects %v, want the ConfigMap, Secret and PVC", other)
	}
	s := shard.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("completionMode %v, want Indexed", s.CompletionMode)
	}
	c := container(t, shard)
	m := shardArg.FindStringSubmatch(arg(c.Args, "shard"))
	if m == nil {
		t.Fatalf("--shard %q, want $(JOB_COMPLETION_INDEX)/N", arg(c.Args, "shard"))
	}
	n, _ := strconv.Atoi(m[1])
	if s.Completions == nil || s.Parallelism == nil || int(*s.Completions) != n || int(*s.Parallelism) != n {
		t.Fatalf("completions %s parallelism %s, want both = %d shards (all shards run at once)", i32(s.Completions), i32(s.Parallelism), n)
	}
	if s.BackoffLimit == nil || *s.BackoffLimit != 0 || s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("backoffLimit %v restartPolicy %q: a retried shard would start late", s.BackoffLimit, s.Template.Spec.RestartPolicy)
	}
	// One --start-at for every pod: a literal filled at apply time, not a per-pod value.
	if arg(c.Args, "start-at") != "$(START_AT)" {
		t.Errorf("--start-at %q, want $(START_AT)", arg(c.Args, "start-at"))
	}
	if e := envOf(c, "START_AT"); e == nil || e.ValueFrom != nil || e.Value != "${START_AT}" {
		t.Errorf("START_AT env %+v, want the literal ${START_AT} filled by envsubst", e)
	}
	// Each shard writes its own directory on the volume the merge Job reads.
	out := arg(c.Args, "out")
	if !strings.Contains(out, "$(JOB_COMPLETION_INDEX)") {
		t.Errorf("--out %q does not depend on the index: shards would overwrite each other", out)
	}
	mc := container(t, merge)
	glob := mc.Args[len(mc.Args)-1]
	if ok, _ := filepath.Match(glob, strings.ReplaceAll(out, "$(JOB_COMPLETION_INDEX)", "3")); !ok {
		t.Errorf("merge input %q does not match shard output %q", glob, out)
	}
	if arg(mc.Args, "threshold") != arg(c.Args, "threshold") {
		t.Errorf("merge gates %q differ from the shards' %q", arg(mc.Args, "threshold"), arg(c.Args, "threshold"))
	}
	claim := func(j *batchv1.Job) string {
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				return v.PersistentVolumeClaim.ClaimName
			}
		}
		return ""
	}
	if claim(shard) == "" || claim(shard) != claim(merge) {
		t.Errorf("result volumes %q and %q differ", claim(shard), claim(merge))
	}
	// The secret key arrives as a file under the secret's mount, never as an argument.
	kf := envOf(c, "MPH_SECRET_KEY_FILE")
	mounted := false
	for _, vm := range c.VolumeMounts {
		mounted = mounted || (kf != nil && strings.HasPrefix(kf.Value, vm.MountPath+"/") && vm.ReadOnly)
	}
	if !mounted {
		t.Errorf("MPH_SECRET_KEY_FILE %+v is not under a read-only mount", kf)
	}
	for _, a := range append(append([]string{}, c.Args...), mc.Args...) {
		if strings.Contains(strings.ToLower(a), "secret") {
			t.Errorf("argument %q mentions a secret", a)
		}
	}
}

func i32(p *int32) string {
	if p == nil {
		return "unset"
	}
	return strconv.Itoa(int(*p))
}
