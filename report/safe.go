package report

import (
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/redact"
)

// safeReport returns a copy of r whose free text (failure messages, captured
// output, report entries) is redacted and escaped before any writer renders
// it: JUnit would otherwise turn an ESC into U+FFFD, and JSON would keep it
// as \u001b, which a reader decodes back into a raw escape sequence.
func safeReport(r types.Report) types.Report {
	specs := make(types.SpecReports, len(r.SpecReports))
	for i, s := range r.SpecReports {
		s.Failure = safeFailure(s.Failure)
		afs := make([]types.AdditionalFailure, len(s.AdditionalFailures))
		for j, af := range s.AdditionalFailures {
			af.Failure = safeFailure(af.Failure)
			afs[j] = af
		}
		s.AdditionalFailures = afs
		s.CapturedGinkgoWriterOutput = redact.Safe(s.CapturedGinkgoWriterOutput)
		s.CapturedStdOutErr = redact.Safe(s.CapturedStdOutErr)
		entries := make(types.ReportEntries, len(s.ReportEntries))
		for j, e := range s.ReportEntries {
			e.Value = types.WrapEntryValue(redact.Safe(e.StringRepresentation()))
			entries[j] = e
		}
		s.ReportEntries = entries
		specs[i] = s
	}
	r.SpecReports = specs
	r.SpecialSuiteFailureReasons = safeAll(r.SpecialSuiteFailureReasons)
	return r
}

func safeFailure(f types.Failure) types.Failure {
	f.Message = redact.Safe(f.Message)
	f.ForwardedPanic = redact.Safe(f.ForwardedPanic)
	return f
}

func safeAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = redact.Safe(s)
	}
	return out
}
