package preview

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// ReloadPath is the server-sent events endpoint open pages listen on.
const ReloadPath = "/__reload"

// reloadScript is injected into every HTML page served, never into the
// built files: on a "reload" event the page reloads itself. The stream
// closes when the page is hidden (navigated away from, or kept in the
// back-forward cache), so open streams never use up the browser's six
// connections to the server.
const reloadScript = `<script>(function(){if(!window.EventSource)return;var es;function open(){es=new EventSource("` + ReloadPath + `");es.addEventListener("reload",function(){es.close();location.reload();});}open();addEventListener("pagehide",function(){es.close();});addEventListener("pageshow",function(e){if(e.persisted)open();});})();</script>`

// broker fans reload events out to the open pages' event streams.
type broker struct {
	mu   sync.Mutex
	subs map[chan string]bool
}

func newBroker() *broker { return &broker{subs: map[chan string]bool{}} }

// publish sends a reload event to every open stream and returns how many.
func (b *broker) publish(id string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- id:
		default: // a stream that is behind reloads on the next event
		}
	}
	return len(b.subs)
}

func (b *broker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan string, 1)
	b.mu.Lock()
	b.subs[ch] = true
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.subs, ch)
		b.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// retry: a page whose stream broke (the server restarted) reconnects soon.
	io.WriteString(w, "retry: 500\n: connected\n\n")
	fl.Flush()
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case id := <-ch:
			fmt.Fprintf(w, "event: reload\nid: %s\ndata: %s\n\n", id, id)
			fl.Flush()
		case <-ping.C:
			io.WriteString(w, ": ping\n\n")
			fl.Flush()
		}
	}
}
