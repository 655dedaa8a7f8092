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

// reloadJSPath serves reloadJS.
const reloadJSPath = "/__reload.js"

// reloadScript is injected into every HTML page served, never into the
// built files: on a "reload" event the page reloads itself. The stream
// closes when the page is hidden (navigated away from, or kept in the
// back-forward cache), so open streams never use up the browser's six
// connections to the server. It is a file, not an inline script, so the
// pages' Content-Security-Policy allows scripts from the server only.
const reloadScript = `<script src="` + reloadJSPath + `"></script>`

const reloadJS = `(function(){if(!window.EventSource)return;var es;function open(){es=new EventSource("` + ReloadPath + `");es.addEventListener("reload",function(){es.close();location.reload();});}open();addEventListener("pagehide",function(){es.close();});addEventListener("pageshow",function(e){if(e.persisted)open();});})();
`

// maxStreams caps the open reload streams: each holds a connection and a
// goroutine, and a page beyond the cap only misses its live reload.
const maxStreams = 256

// pingEvery keeps a stream alive through proxies; a client that has not
// taken a ping or an event within two of them is cut off.
const pingEvery = 20 * time.Second

// broker fans reload events out to the open pages' event streams.
type broker struct {
	mu   sync.Mutex
	subs map[chan string]bool
	max  int
}

func newBroker() *broker { return &broker{subs: map[chan string]bool{}, max: maxStreams} }

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
	if len(b.subs) >= b.max {
		b.mu.Unlock()
		// 503 ends an EventSource for good: the page works, without
		// live reload.
		http.Error(w, "too many open reload streams", http.StatusServiceUnavailable)
		return
	}
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
	// The server's write timeout would end the stream: each write gets
	// its own deadline instead.
	// The read timeout too: the server's background read would end it.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	deadline := func() { rc.SetWriteDeadline(time.Now().Add(2 * pingEvery)) }
	deadline()
	// retry: a page whose stream broke (the server restarted) reconnects soon.
	io.WriteString(w, "retry: 500\n: connected\n\n")
	fl.Flush()
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case id := <-ch:
			deadline()
			fmt.Fprintf(w, "event: reload\nid: %s\ndata: %s\n\n", id, id)
			err = rc.Flush()
		case <-ping.C:
			deadline()
			io.WriteString(w, ": ping\n\n")
			err = rc.Flush()
		}
		if err != nil {
			return
		}
	}
}
