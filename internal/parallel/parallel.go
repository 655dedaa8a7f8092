package parallel

import (
	"runtime"
	"sync"
)

// Each calls f(0) … f(n-1), each once, on as many goroutines as there
// are CPUs, and returns when every call has. f writes its own results
// (its element of a slice), so the order of the calls does not matter.
func Each(n int, f func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, min(n, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
