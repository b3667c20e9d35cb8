package sandbox

import "net/http"

// Faults of the area "Envelopes and versioning" (the registry: sandbox/fault).

// textPlainWriter relabels every answer text/plain (fault envelope-json-as-text-plain).
type textPlainWriter struct{ http.ResponseWriter }

func (w textPlainWriter) WriteHeader(code int) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.ResponseWriter.WriteHeader(code)
}
