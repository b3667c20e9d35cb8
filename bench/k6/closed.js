// Closed model for `make bench`: VUS virtual users, each sending its next
// request when the previous answer arrives (like wrk's connections and
// `vegeta attack -rate=0 -max-workers`). handleSummary writes k6's figures
// as JSON to OUT for bench/report.
import http from 'k6/http';

export const options = {
  vus: Number(__ENV.VUS),
  duration: __ENV.DUR,
  summaryTrendStats: ['med', 'p(99)', 'max'],
  discardResponseBodies: true,
};

const params = { headers: { Authorization: __ENV.AUTH } };

export default function () {
  http.get(__ENV.URL, params);
}

export function handleSummary(data) {
  return { [__ENV.OUT]: JSON.stringify(data) };
}
