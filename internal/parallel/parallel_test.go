package parallel

import "testing"

func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		calls := make([]int, n)
		Each(n, func(i int) { calls[i]++ })
		for i, c := range calls {
			if c != 1 {
				t.Fatalf("n=%d: f(%d) called %d times", n, i, c)
			}
		}
	}
}
