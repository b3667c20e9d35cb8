package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/report/proxyreport"
)

type proxyFlags struct {
	target                   *config.Flags
	listen, out, har, failOn string
	logFile                  string
	duration, reportEvery    time.Duration
}

var proxyOpts proxyFlags

var proxyCmd = &cobra.Command{
	Use:   "proxy --base-url BASE_URL [--listen ADDR]",
	Short: "A transparent reverse proxy that checks real traffic against the API document, both ways",
	Long: `Forward every request to the target's merchant root unchanged and check each
exchange: the server's answers (status, JSON, envelope and schema, error
envelope, masking, secure details only on /secure, echoed path, timestamps)
and the client's conduct (bearer tokens, token reuse and expiry,
X-Merchant-Id, Retry-After and backoff after a 429, amounts in cents,
unique references, secret keys only at the token exchange).

Clients use the proxy's address with the same base path as the target:
--base-url http://test.example.com/v1/merchant --listen 127.0.0.1:8081 serves
http://127.0.0.1:8081/v1/merchant. The target is configured as for every
command (--base-url, --timeout, --max-body, --profile, --insecure-tls and
their variables); --upstream and --body-cap are deprecated names of
--base-url and --max-body. Each violation is logged on stderr as it is
found; on SIGINT/SIGTERM (or after --duration) JUnit, JSON, HTML and
Markdown reports are written to --out.

Exit codes: 0 no violation on the --fail-on side, 1 violations, 2 usage,
3 exchanges the proxy failed to check (internal error), 130 interrupted by a
signal (reports still written and marked).`,
	Args: cobra.NoArgs,
	RunE: runProxy,
}

func init() {
	f := &proxyOpts
	fs := proxyCmd.Flags()
	f.target = config.Bind(fs, config.CmdProxy)
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8081", "address to listen on")
	fs.StringVar(&f.out, "out", "mph-proxy-results", "directory for junit.xml, report.json, report.html and report.md")
	fs.StringVar(&f.logFile, "log", "", "also append the violation lines to this file")
	fs.StringVar(&f.har, "har", "", "also record every exchange, redacted, as a HAR 1.2 file")
	fs.StringVar(&f.failOn, "fail-on", "any", "violations that make the exit code 1: server, client, any or none")
	// Former names: scripts and CI jobs calling mph proxy --upstream keep
	// their meaning, which is exactly the new flag's, with a notice.
	f.target.Deprecated("upstream", "base-url")
	f.target.Deprecated("body-cap", "max-body")
	fs.DurationVar(&f.duration, "duration", 0, "stop after this long and exit 0 or 1 (0: run until SIGINT/SIGTERM)")
	fs.DurationVar(&f.reportEvery, "report-every", time.Minute, "also rewrite the reports this often during the session, marked in progress (0: only at the end)")
	rootCmd.AddCommand(proxyCmd)
}

func runProxy(cmd *cobra.Command, _ []string) error {
	f := &proxyOpts
	softMemoryLimit(proxyMemoryLimit)
	px, closeHAR, err := newProxyFromFlags(cmd)
	if err != nil {
		return err
	}
	defer closeHAR()
	// Signals are caught from before the port opens: a client can only
	// reach the proxy once an interrupt would write the reports.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return usageErr("--listen %s: %v", f.listen, err)
	}
	started := time.Now()
	fmt.Fprintf(cmd.OutOrStdout(), "mph proxy: http://%s%s → %s (fail on %s; Ctrl-C writes the reports to %s)\n",
		ln.Addr(), px.BasePath(), px.Upstream(), f.failOn, f.out)
	interim := func() {
		rep := px.NewReport(ln.Addr().String(), f.failOn, started, time.Now(), false)
		rep.InProgress = true
		if _, err := proxyreport.Write(f.out, rep); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "mph proxy: writing interim reports:", err)
		}
	}
	interrupted, err, cerr := px.Serve(ln, proxy.ServeOptions{Stop: sig, Duration: f.duration, Every: f.reportEvery, Interim: interim,
		ErrorLog: log.New(cmd.ErrOrStderr(), "mph proxy: ", 0)})
	if cerr != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "mph proxy:", cerr)
	}
	rep := px.NewReport(ln.Addr().String(), f.failOn, started, time.Now(), interrupted)
	return finishProxy(cmd, rep, interrupted, err)
}

// newProxyFromFlags validates the flags and builds the proxy; the returned
// func closes the log and HAR files.
func newProxyFromFlags(cmd *cobra.Command) (*proxy.Proxy, func(), error) {
	f := &proxyOpts
	switch f.failOn {
	case "server", "client", "any", "none":
	default:
		return nil, nil, usageErr("--fail-on %q: want server, client, any or none", f.failOn)
	}
	s, err := proxySettings()
	if err != nil {
		return nil, nil, err
	}
	prof, err := api.LoadProfile(s.ProfilePath)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	popts := proxy.Options{Upstream: s.BaseURL, Profile: prof, BodyCap: int(s.BodyCap(proxy.DefaultBodyCap)), Timeout: s.Timeout,
		InsecureTLS: s.InsecureTLS, Log: cmd.ErrOrStderr()}
	var files []*os.File
	closeFiles := func() {
		for _, fl := range files {
			_ = fl.Close()
		}
	}
	if f.logFile != "" {
		// 0600: the log quotes the traffic of other clients (redacted).
		lf, err := os.OpenFile(f.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, usageErr("--log: %v", err)
		}
		files = append(files, lf)
		popts.Log = io.MultiWriter(popts.Log, lf)
	}
	if f.har != "" {
		// 0600: a HAR holds every exchange of every client (redacted).
		harFile, err := os.OpenFile(f.har, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err == nil {
			err = harFile.Chmod(0o600) // an older file it replaces may have been readable
		}
		if err != nil {
			closeFiles()
			return nil, nil, usageErr("--har: %v", err)
		}
		files = append(files, harFile)
		popts.HAR = harFile
	}
	px, err := proxy.New(popts)
	if err != nil {
		closeFiles()
		return nil, nil, usageErr("%v", err)
	}
	return px, closeFiles, nil
}

// proxySettings are the target's settings as every command reads them.
func proxySettings() (config.Settings, error) {
	s, err := proxyOpts.target.Settings()
	if err != nil {
		return s, usageErr("%v", err)
	}
	if s.BaseURL == "" {
		return s, usageErr("mph proxy needs the target: --base-url or %s (the merchant root, e.g. http://127.0.0.1:8080/v1/merchant)", config.EnvBaseURL)
	}
	return s, nil
}

// finishProxy writes the reports and turns the session into an exit code.
func finishProxy(cmd *cobra.Command, rep session.Report, interrupted bool, serveErr error) error {
	f := &proxyOpts
	paths, werr := proxyreport.Write(f.out, rep)
	if werr != nil {
		werr = fmt.Errorf("writing reports: %w", werr)
	} else {
		fmt.Fprintf(cmd.OutOrStdout(), "mph proxy: %d exchanges, %d server-side and %d client-side violations\n  %s\n  %s\n  %s\n  %s\n",
			rep.Exchanges, rep.Server, rep.Client, paths.JUnit, paths.JSON, paths.HTML, paths.Markdown)
		if f.har != "" {
			fmt.Fprintf(cmd.OutOrStdout(), "  %s\n", f.har)
		}
	}
	var verdict, checkErr error
	switch {
	case interrupted:
		verdict = &exitError{code: exitcode.Interrupted, err: errors.New("interrupted; reports written")}
	case rep.Failed:
		verdict = failuresErr("violations on the %s side", f.failOn)
	}
	if rep.CheckErrors > 0 {
		checkErr = fmt.Errorf("%d exchanges could not be checked (internal error)", rep.CheckErrors)
	}
	// Violations seen and an interrupt stand over the harness's own errors.
	return keepVerdict(cmd.ErrOrStderr(), verdict, serveErr, werr, checkErr)
}
