// Package need provides internal/need's literal prefilters as they stood
// when internal/dmesg/internal/baseline was copied, so the frozen
// classifier keeps their answers and speed whatever internal/need becomes.
package need
