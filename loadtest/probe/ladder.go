package probe

// climb is the rate ladder of the probe and of the capacity search: it runs
// step at start, start×factor, start×factor², … while the rate is at most
// max, until step says stop. It returns the rate step stopped at, and 0
// when the ladder reached max without stopping.
func climb(start, factor, max float64, step func(rate float64) (stop bool, err error)) (float64, error) {
	for r := start; r <= max; r *= factor {
		stop, err := step(r)
		if err != nil || stop {
			return r, err
		}
	}
	return 0, nil
}
