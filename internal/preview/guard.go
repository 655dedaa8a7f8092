package preview

import (
	"net"
	"net/http"
	"os"
	"strings"
)

// csp lets a page load its scripts, styles, images and search shards from
// the server it came from and nothing else: no inline script or style
// (the site has none; the reload script is a file too), no framing.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// secureHeaders are sent with every answer.
func secureHeaders(h http.Header) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// hosts are the Host headers a server answers: the names of the address
// it listens on, so that a page on another site whose DNS name was
// rebound to 127.0.0.1 cannot read it (DNS rebinding).
type hosts struct {
	any   bool            // no listener known (tests call ServeHTTP directly)
	names map[string]bool // host names and IP literals, lower case, without port
	ips   bool            // any IP literal: it listens on every address
}

// allowedHosts names the hosts a listener at addr answers to: loopback
// names for a loopback address; for every address (0.0.0.0, ::), any IP
// literal and this machine's host name; else the address itself.
func allowedHosts(addr net.Addr) hosts {
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return hosts{any: true}
	}
	h := hosts{names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	switch {
	case ta.IP.IsLoopback():
		h.names[ta.IP.String()] = true
	case ta.IP.IsUnspecified():
		h.ips = true
		if name, err := os.Hostname(); err == nil {
			h.names[strings.ToLower(name)] = true
			if short, _, ok := strings.Cut(name, "."); ok {
				h.names[strings.ToLower(short)] = true
			}
		}
	default:
		h.names[ta.IP.String()] = true
	}
	return h
}

func (h hosts) allow(hostport string) bool {
	if h.any {
		return true
	}
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if h.names[host] || strings.HasSuffix(host, ".localhost") {
		return true
	}
	return h.ips && net.ParseIP(host) != nil
}

// Loopback reports whether addr (host:port, as --addr) listens on the
// loopback interface only; kbgen serve warns when it does not, as the
// site holds customer records.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
