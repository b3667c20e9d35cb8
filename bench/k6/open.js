// Open model for `make bench`: RATE iterations per second whatever the
// answers (constant-arrival-rate), the same schedule as `vegeta attack
// -rate` and `mph load --rate`. handleSummary writes k6's figures as JSON to
// OUT for bench/report; dropped_iterations counts the sends k6 could not make.
import http from 'k6/http';

export const options = {
  scenarios: {
    open: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE),
      timeUnit: '1s',
      duration: __ENV.DUR,
      preAllocatedVUs: 100,
      maxVUs: 2000,
    },
  },
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
