package export

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/rocekb/rocekb/internal/render"
)

// Sitemap emits sitemap.xml listing paths under baseURL. The sitemap
// protocol needs absolute URLs, so without a base_url in kb.toml there is
// no sitemap (every page still links relatively). paths is called when the
// stage runs, after the pages it lists are known.
func Sitemap(baseURL string, paths func() []string) render.Producer {
	return func(emit func(render.Output) error) error {
		if baseURL == "" {
			return nil
		}
		base := strings.TrimRight(baseURL, "/") + "/"
		ps := paths()
		return emit(render.Func("sitemap.xml", func(w io.Writer) error {
			var b strings.Builder
			b.WriteString(xml.Header)
			b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
			for _, p := range ps {
				b.WriteString("<url><loc>")
				xml.EscapeText(&b, []byte(base+strings.TrimSuffix(p, "index.html")))
				b.WriteString("</loc></url>\n")
			}
			b.WriteString("</urlset>\n")
			_, err := io.WriteString(w, b.String())
			return err
		}))
	}
}
