package corpus

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// Size is how much of each kind of input a corpus holds.
type Size struct {
	Name     string
	Adapters int // synthetic adapter entries added to the bundled matrix
	FAQ      int // synthetic FAQ pages added to the bundled content
	Hosts    int // host records
}

// Sizes are the three named sizes: a CI smoke run, about 10,000 pages, and a
// fleet of 100,000 host records.
var Sizes = []Size{
	{Name: "smoke", Adapters: 20, FAQ: 30, Hosts: 50},
	{Name: "10k", Adapters: 2000, FAQ: 8000, Hosts: 0},
	{Name: "fleet", Adapters: 0, FAQ: 0, Hosts: 100000},
}

// SizeNamed returns the named size.
func SizeNamed(name string) (Size, error) {
	var names []string
	for _, s := range Sizes {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Size{}, fmt.Errorf("unknown corpus size %q (want one of %s)", name, strings.Join(names, ", "))
}

// Inputs are the real knowledge base the corpus grows from: the bundled
// matrix/ and content/ folders and the fixture host records.
type Inputs struct {
	Matrix  fs.FS // matrix/*.toml, copied as they are
	Content fs.FS // content/, copied as it is
	Hosts   fs.FS // *.golden.toml host records to vary
}

// Seed is the fixed seed every benchmark uses.
const Seed = 20261201

// Write lays out a corpus under dir:
//
//	dir/kb/matrix, dir/kb/content, dir/kb/records   inputs for kbgen build
//	dir/hugo/                                       the same markdown as a Hugo site
func Write(dir string, in Inputs, s Size, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, uint64(s.Adapters)<<32|uint64(s.FAQ)))
	kb := filepath.Join(dir, "kb")
	if err := copyFS(filepath.Join(kb, "matrix"), in.Matrix); err != nil {
		return err
	}
	if err := copyFS(filepath.Join(kb, "content"), in.Content); err != nil {
		return err
	}
	srcIDs, err := sourceIDs(in.Matrix)
	if err != nil {
		return err
	}
	adapters := genAdapters(r, s.Adapters)
	if err := writeFile(filepath.Join(kb, "matrix", "synthetic.toml"), matrixTOML(adapters)); err != nil {
		return err
	}
	hugo := filepath.Join(dir, "hugo")
	if err := writeHugoSkeleton(hugo); err != nil {
		return err
	}
	for _, a := range adapters {
		if err := writeFile(filepath.Join(hugo, "content", "adapter", a.id+".md"), hugoAdapter(a)); err != nil {
			return err
		}
	}
	for i := 0; i < s.FAQ; i++ {
		p := genFAQ(r, i, adapters, srcIDs)
		if err := writeFile(filepath.Join(kb, "content", "faq", p.slug+".md"), p.kbgen()); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(hugo, "content", "faq", p.slug+".md"), p.hugo()); err != nil {
			return err
		}
	}
	return writeHosts(filepath.Join(kb, "records"), in.Hosts, r, s.Hosts)
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

func copyFS(dst string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dst, filepath.FromSlash(p)), data)
	})
}

// sourceIDs lists the [[source]] ids of the matrix, so synthetic pages cite
// real sources and lint stays clean.
func sourceIDs(m fs.FS) ([]string, error) {
	var ids []string
	err := fs.WalkDir(m, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".toml") {
			return err
		}
		data, err := fs.ReadFile(m, p)
		if err != nil {
			return err
		}
		inSource := false
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "[") {
				inSource = line == "[[source]]"
			}
			if v, ok := strings.CutPrefix(line, "id = \""); ok && inSource {
				ids = append(ids, strings.TrimSuffix(v, "\""))
			}
		}
		return nil
	})
	sort.Strings(ids)
	if len(ids) == 0 && err == nil {
		err = fmt.Errorf("matrix has no [[source]] entries")
	}
	return ids, err
}

// A family is a real driver with the shape of adapter entries it carries.
type family struct {
	vendor, eth, rdma, provider, prefix string
	roce                                []string
}

var families = []family{
	{"nvidia", "mlx5_core", "mlx5_ib", "mlx5", "Synthetic ConnectX", []string{"v1", "v2"}},
	{"broadcom", "bnxt_en", "bnxt_re", "bnxt_re", "Synthetic NetXtreme", []string{"v1", "v2"}},
	{"intel", "ice", "irdma", "irdma", "Synthetic E8", []string{"v2"}},
	{"marvell", "qede", "qedr", "qedr", "Synthetic FastLinQ", []string{"v1", "v2"}},
}

// syntheticPCIVendor is the PCI vendor id of every synthetic adapter.
// pci.ids lists ffff as "Illegal Vendor ID" (a read of the vendor register
// returns ffff when no device answers), so no real device, and so no
// matrix row, can ever carry it: ffff:a000 and up cannot clash with an id
// of the curated matrix, which lint would refuse as a duplicate.
const syntheticPCIVendor = "ffff"

type adapter struct {
	id, name, pci string
	fam           family
	speedGbps     int
}

func genAdapters(r *rand.Rand, n int) []adapter {
	speeds := []int{10, 25, 50, 100, 200, 400}
	out := make([]adapter, n)
	for i := range out {
		f := families[i%len(families)]
		out[i] = adapter{
			id:        fmt.Sprintf("synthetic-%s-%05d", f.vendor, i),
			name:      fmt.Sprintf("%s %05d", f.prefix, i),
			pci:       fmt.Sprintf("%s:%04x", syntheticPCIVendor, 0xa000+i),
			fam:       f,
			speedGbps: speeds[r.IntN(len(speeds))],
		}
	}
	return out
}

func matrixTOML(as []adapter) []byte {
	var b bytes.Buffer
	b.WriteString("# Synthetic adapters for benchmarks (internal/corpus). PCI ids are made up.\nschema = 1\n")
	for _, a := range as {
		fmt.Fprintf(&b, "\n[[adapter]]\nid = %q\nname = %q\nvendor = %q\npci = [{ id = %q, name = %q }]\n", a.id, a.name, a.fam.vendor, a.pci, a.name)
		fmt.Fprintf(&b, "roce = [%s]\neth_driver = %q\nrdma_driver = %q\nrdma_core_provider = %q\n", quoteList(a.fam.roce), a.fam.eth, a.fam.rdma, a.fam.provider)
		fmt.Fprintf(&b, "note = \"Synthetic %d Gb/s adapter for benchmarks.\"\nsources = [\"pciids\"]\nconfidence = \"unconfirmed\"\nlast_verified = 2026-12-01\n", a.speedGbps)
	}
	return b.Bytes()
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

func hugoAdapter(a adapter) []byte {
	return []byte(fmt.Sprintf("+++\ntitle = %q\n+++\n\n%s is a %d Gb/s %s adapter (PCI id `%s`). Its Ethernet driver is `%s` and its RDMA driver `%s`; rdma-core loads the `%s` provider. It supports RoCE %s.\n",
		a.name, a.name, a.speedGbps, a.fam.vendor, a.pci, a.fam.eth, a.fam.rdma, a.fam.provider, strings.Join(a.fam.roce, " and ")))
}

// Words and identifiers FAQ bodies are drawn from: the vocabulary support
// engineers search with.
var (
	prose = strings.Fields(`the adapter port driver firmware kernel module loads binds reports shows
		when after before because while check verify update install remove configure enable disable
		traffic queue pair path mtu link state address table interface host switch fabric network
		priority flow control congestion error message log version release stack inbox vendor
		supported requires needs default mode value setting command output returns fails works`)
	idents = []string{"mlx5_core", "mlx5_ib", "bnxt_re", "bnxt_en", "irdma", "ice", "qedr", "rdma_rxe",
		"ib_core", "rdma_cm", "ibv_devinfo", "show_gids", "default_roce_mode", "PORT_ACTIVE",
		"RoCEv2", "RoCE v1", "0x8915", "4791", "16.35.2000", "22.39.1002", "5.14.0-427.el9",
		"4.18.0-553.el8_10", "MLNX_OFED", "DOCA-OFED", "enic_rdma", "15b3:101d", "14e4:1750",
		"8086:1593", "ConnectX-6 Dx", "BCM57508", "E810-XXV", "Failed to modify QP to RTR",
		"probe with driver mlx5_core failed with error -22", "disagrees about version of symbol"}
)

type faq struct {
	slug, title, summary string
	adapters, sources    []string
	body                 string
}

func genFAQ(r *rand.Rand, i int, as []adapter, srcIDs []string) faq {
	p := faq{slug: fmt.Sprintf("synthetic-%05d", i)}
	p.title = fmt.Sprintf("Why does %s %s with %s? (case %d)", idents[r.IntN(len(idents))], prose[r.IntN(len(prose))], idents[r.IntN(len(idents))], i)
	p.summary = sentence(r, 12)
	p.sources = []string{srcIDs[r.IntN(len(srcIDs))]}
	if len(as) > 0 {
		p.adapters = []string{as[r.IntN(len(as))].id}
	}
	words := 300 + r.IntN(301)
	var b strings.Builder
	for n := 0; n < words; {
		k := 8 + r.IntN(10)
		b.WriteString(sentence(r, k))
		n += k
		switch r.IntN(6) {
		case 0:
			fmt.Fprintf(&b, " [%s]", p.sources[0])
		case 1:
			b.WriteString("\n\n")
			if r.IntN(3) == 0 {
				fmt.Fprintf(&b, "## %s\n\n", strings.ToUpper(sentence(r, 4)[:1])+sentence(r, 4)[1:])
			}
			continue
		}
		b.WriteString(" ")
	}
	p.body = strings.TrimSpace(b.String()) + "\n"
	return p
}

func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		if r.IntN(5) == 0 {
			w[i] = "`" + idents[r.IntN(len(idents))] + "`"
		} else {
			w[i] = prose[r.IntN(len(prose))]
		}
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (p faq) kbgen() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "+++\ntitle = %q\nsummary = %q\ntags = [\"synthetic\"]\n", p.title, p.summary)
	if len(p.adapters) > 0 {
		fmt.Fprintf(&b, "adapters = [%s]\n", quoteList(p.adapters))
	}
	fmt.Fprintf(&b, "sources = [%s]\nlast_verified = 2026-12-01\nlang = \"en\"\ntranslation_key = %q\n+++\n\n%s", quoteList(p.sources), p.slug, p.body)
	return b.Bytes()
}

func (p faq) hugo() []byte {
	return []byte(fmt.Sprintf("+++\ntitle = %q\nsummary = %q\n+++\n\n%s", p.title, p.summary, p.body))
}

func writeHugoSkeleton(dir string) error {
	files := map[string]string{
		"hugo.toml":                    "baseURL = \"http://127.0.0.1/\"\ntitle = \"rocekb benchmark corpus\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\"]\n",
		"layouts/_default/baseof.html": "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{{ .Title }}</title></head><body><main>{{ block \"main\" . }}{{ end }}</main></body></html>\n",
		"layouts/_default/single.html": "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n",
		"layouts/_default/list.html":   "{{ define \"main\" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n",
		"layouts/index.html":           "{{ define \"main\" }}<h1>{{ .Site.Title }}</h1>{{ end }}\n",
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(n)), []byte(files[n])); err != nil {
			return err
		}
	}
	return nil
}

// writeHosts writes n records varied from the fixture records: each gets a
// host id, and firmware versions and kernels drawn from the fixtures' own.
func writeHosts(dir string, fixtures fs.FS, r *rand.Rand, n int) error {
	if n == 0 {
		return nil
	}
	names, err := fs.Glob(fixtures, "*.golden.toml")
	if err != nil || len(names) == 0 {
		return fmt.Errorf("no *.golden.toml fixture records to vary (%v)", err)
	}
	var base []*record.Host
	var firmware, kernels []string
	for _, name := range names {
		src, err := fs.ReadFile(fixtures, name)
		if err != nil {
			return err
		}
		h, probs := record.Decode(name, src)
		if h == nil {
			return fmt.Errorf("%s: %v", name, probs)
		}
		base = append(base, h)
		for _, a := range h.Adapters {
			if a.Firmware.Running != "" {
				firmware = append(firmware, a.Firmware.Running)
			}
		}
		if h.Host.KernelRelease != "" {
			kernels = append(kernels, h.Host.KernelRelease)
		}
	}
	for i := 0; i < n; i++ {
		src := base[r.IntN(len(base))]
		var buf bytes.Buffer
		if err := record.Encode(&buf, src, "toml"); err != nil {
			return err
		}
		h, probs := record.Decode("copy", buf.Bytes())
		if h == nil {
			return fmt.Errorf("re-decode: %v", probs)
		}
		h.Host.ID = fmt.Sprintf("host-%06d", i)
		if len(kernels) > 0 && r.IntN(3) == 0 {
			h.Host.KernelRelease = kernels[r.IntN(len(kernels))]
		}
		for j := range h.Adapters {
			if len(firmware) > 0 && h.Adapters[j].Firmware.Running != "" && r.IntN(4) == 0 {
				h.Adapters[j].Firmware.Running = firmware[r.IntN(len(firmware))]
			}
		}
		buf.Reset()
		if err := record.Encode(&buf, h, "toml"); err != nil {
			return err
		}
		sub := fmt.Sprintf("%03d", i/1000)
		if err := writeFile(filepath.Join(dir, sub, path.Base(h.Host.ID)+".toml"), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
