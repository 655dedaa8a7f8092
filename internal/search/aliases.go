package search

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
)

// Aliases maps the names people type for one thing to a canonical term: an
// adapter, vendor, driver or stack id, or a glossary term id. Single-token
// names match by their compact form (ConnectX-5, connectx5 and CX5 all
// compact to a key); names of several tokens also match token by token
// (RoCE v2, ConnectX-4 Lx).
type Aliases struct {
	single map[string][]string // compact(name) → canonical ids
	multi  map[string][]phrase // first raw token → phrases starting with it
	// first raw token → second → the phrases of multi starting with both,
	// in multi's order: what Analyze looks up at each token (2,000
	// adapter names all starting "Synthetic" made it try each one).
	next  map[string]map[string][]phrase
	words map[string]bool // every raw token of every name
	names map[string]bool // every name as given, for "did you mean"
	// owner maps an adapter's canonical id to its vendor's: a vendor
	// named beside its own adapter only qualifies it (Qualifiers).
	owner map[string]string
	// fwLine maps a firmware line's major to the adapters that run it
	// (matrix firmware_line), for the firmware versions a query names
	// (queryNames).
	fwLine map[string][]string
	// keyNames caches Analyzer.keyNames by compact key.
	keyNames sync.Map
}

// phrase is a multi-token alias: the raw tokens after the first one.
type phrase struct {
	Rest  []string
	Canon string
}

// follows reports whether the raw tokens after raws[i] spell the rest of
// the phrase.
func (p phrase) follows(raws []raw, i int) bool {
	if i+len(p.Rest) >= len(raws) {
		return false
	}
	for j, w := range p.Rest {
		if raws[i+1+j].text != w {
			return false
		}
	}
	return true
}

// NewAliases returns an empty table.
func NewAliases() *Aliases {
	return &Aliases{single: map[string][]string{}, multi: map[string][]phrase{}, next: map[string]map[string][]phrase{}, words: map[string]bool{}, names: map[string]bool{}, owner: map[string]string{}, fwLine: map[string][]string{}}
}

// Add registers names as aliases of canon.
func (a *Aliases) Add(canon string, names ...string) {
	canon = strings.ToLower(strings.TrimSpace(canon))
	if canon == "" {
		return
	}
	for _, n := range append([]string{canon}, names...) {
		if n = strings.TrimSpace(n); n != "" && a.names != nil {
			a.names[n] = true
		}
		for _, v := range nameVariants(n) {
			raws := rawTokens(v)
			if len(raws) == 0 {
				continue
			}
			key := ""
			for _, r := range raws {
				key += compact(r.text)
				a.words[r.text] = true
			}
			if key != "" && len(key) > 1 {
				a.single[key] = addSorted(a.single[key], canon)
				a.words[key] = true // CX5 for CX-5, RoCEv2 for RoCE v2
			}
			if len(raws) > 1 && len(raws) <= maxPhrase {
				rest := make([]string, len(raws)-1)
				for i, r := range raws[1:] {
					rest[i] = r.text
				}
				p := phrase{Rest: rest, Canon: canon}
				a.addMulti(raws[0].text, p)
			}
		}
	}
}

// addMulti files p, a phrase starting with the raw token first.
func (a *Aliases) addMulti(first string, p phrase) {
	a.multi[first] = addPhrase(a.multi[first], p)
	byNext := a.next[first]
	if byNext == nil {
		byNext = map[string][]phrase{}
		a.next[first] = byNext
	}
	byNext[p.Rest[0]] = addPhrase(byNext[p.Rest[0]], p)
}

// addPhrase inserts p into ps, kept sorted by rest then canon, unless it
// is there already.
func addPhrase(ps []phrase, p phrase) []phrase {
	key := strings.Join(p.Rest, " ")
	i := sort.Search(len(ps), func(i int) bool {
		if ks := strings.Join(ps[i].Rest, " "); ks != key {
			return ks > key
		}
		return ps[i].Canon >= p.Canon
	})
	if i < len(ps) && ps[i].Canon == p.Canon && strings.Join(ps[i].Rest, " ") == key {
		return ps
	}
	ps = append(ps, phrase{})
	copy(ps[i+1:], ps[i:])
	ps[i] = p
	return ps
}

// maxPhrase is the longest alias, in raw tokens, matched token by token:
// five, for a pci.ids bracket name such as "ConnectX-3/ConnectX-3 Pro
// Virtual Function".
const maxPhrase = 5

func addSorted(list []string, s string) []string {
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return list
	}
	list = append(list, "")
	copy(list[i+1:], list[i:])
	list[i] = s
	return list
}

// camelHumps matches the humps of a CamelCase brand word (ConnectX,
// BlueField, NetXtreme), whose initials people use as a short name (CX-5).
var camelHumps = regexp.MustCompile(`^(?:[A-Z][a-z]*){2,}$`)

// nameVariants derives the spellings people use for one name: as written,
// with hyphens as spaces (Soft-RoCE, Soft RoCE), and with a CamelCase brand
// word abbreviated to its capitals (ConnectX-5 → CX-5). No name is listed
// here: every variant is computed from a matrix or glossary name.
func nameVariants(n string) []string {
	n = strings.TrimSpace(n)
	if n == "" {
		return nil
	}
	out := []string{n}
	if strings.Contains(n, "-") {
		out = append(out, strings.ReplaceAll(n, "-", " "))
	}
	// Abbreviate the leading brand word when it is CamelCase and followed
	// by a model designator: ConnectX-4 Lx → CX-4 Lx.
	end := strings.IndexAny(n, "- ")
	if end > 0 && camelHumps.MatchString(n[:end]) {
		var caps strings.Builder
		for _, r := range n[:end] {
			if r >= 'A' && r <= 'Z' {
				caps.WriteRune(r)
			}
		}
		ab := caps.String() + n[end:]
		out = append(out, ab)
		if strings.Contains(ab, "-") {
			out = append(out, strings.ReplaceAll(ab, "-", " "))
		}
	}
	return out
}

// modelNumber matches the chip designator that leads a pci.ids name
// (MT27800 Family [ConnectX-5], BCM57414 NetXtreme-E …).
var modelNumber = regexp.MustCompile(`^[A-Z]{2,4}[0-9]{3,}[A-Z0-9]*$`)

// chipDigits matches a chip designator of letters and digits alone
// (BCM57414); OEMs sell the card by the vendor's name and the digits
// ("Broadcom 57414 Dual Port 10/25GbE SFP28", Dell's name in
// netbox-community/devicetype-library#3676), which AliasesFrom adds as a
// phrase: the digits alone would also match a pid or a counter.
var chipDigits = regexp.MustCompile(`^[A-Z]{2,4}([0-9]{3,})$`)

// partBaseRe matches an ordering part number that is a model and an option
// suffix: letters, a digit and more letters or digits, then "-" and the
// options (MCX311A-XCAT, BCM957508-P2100G, E810-XXVDA2).
var partBaseRe = regexp.MustCompile(`^([A-Za-z]+[0-9][0-9A-Za-z]*)-[0-9A-Za-z][0-9A-Za-z-]*$`)

// partBase is the model of a part number without its option suffix
// (MCX311A of MCX311A-XCAT), which buyers and forum posts write alone; ""
// when the number has no such form. Two part numbers of one model on two
// adapters (MCX516A-CCAT, MCX516A-CDAT) make the model an alias of both.
func partBase(number string) string {
	if m := partBaseRe.FindStringSubmatch(number); m != nil {
		return m[1]
	}
	return ""
}

// moduleFamily is the name an RDMA driver's modules share before their
// first underscore: mlx5 of mlx5_ib and mlx5_core, bnxt of bnxt_re and
// bnxt_en, mana of mana_ib and mana. People name the driver by it ("Support
// for mlx5 driver", openmptcprouter#2231), and no one module is that name.
// "" when the driver has no companion module sharing its first part: a
// software driver such as rdma_rxe has none, so rxe stays the glossary's
// Soft-RoCE term (rdma-core's provider name as an alias, rxe, would make
// the driver page outrank the FAQ pages rxe queries want).
func moduleFamily(id string, eth []string) string {
	first, _, ok := strings.Cut(id, "_")
	if !ok || len(first) < 3 {
		return ""
	}
	for _, e := range eth {
		if e == first || strings.HasPrefix(e, first+"_") {
			return first
		}
	}
	return ""
}

// releaseName splits a distro release's name or id into its family, its
// major and its minor version: "Rocky Linux", "10" and "0" of "Rocky Linux
// 10.0", "rhel", "9" and "4" of rhel-9.4. Names without a minor (Amazon
// Linux 2023, SLES 15 SP5) do not match.
var releaseName = regexp.MustCompile(`^([A-Za-z][A-Za-z ]*?)[ -]([0-9]+)\.([0-9]+)`)

// distroNames returns the other names people type for the distro release
// with this id and name.
// A family of several words is also written as one word ("RockyLinux
// 10.0"), as distro names are in image, AMI and repository names
// ("RockyLinux 10 AMI", rocky-linux/sig-cloud-instance-images#61). The
// family and major alone ("Rocky Linux 10", "rhel 9") name the latest
// release of that major the matrix has (latest holds its minor by short
// name), so that "Rocky Linux 10" finds a 10.x release rather than 8.10,
// whose version also holds a 10, and names one page, not every minor
// release's. A short name that is already some release's own name or id
// (debian-11, "Debian 11 (bullseye)") is not added: it names that release
// (taken holds the compact form of every release's id and name).
func distroNames(id, name string, taken map[string]bool, latest map[string]int) []string {
	var out []string
	for _, n := range []string{name, id} {
		m := releaseName.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		family, major := strings.TrimSpace(m[1]), m[2]
		minor, _ := strconv.Atoi(m[3])
		forms := []string{family}
		if joined := strings.ReplaceAll(family, " ", ""); joined != family {
			forms = append(forms, joined)
			out = append(out, joined+strings.TrimPrefix(n, family))
		}
		for _, f := range forms {
			short := compact(f + " " + major)
			if taken[short] {
				continue
			}
			if best, ok := latest[short]; !ok || minor >= best {
				out = append(out, f+" "+major)
			}
		}
	}
	return out
}

// latestMinors returns, for each family and major short name of the
// distros (compact "rockylinux10", "rhel9"), the highest minor version the
// matrix has.
func latestMinors(ds []matrix.Distro) map[string]int {
	out := map[string]int{}
	for _, d := range ds {
		for _, n := range []string{d.Name, d.ID} {
			m := releaseName.FindStringSubmatch(n)
			if m == nil {
				continue
			}
			minor, _ := strconv.Atoi(m[3])
			family := strings.TrimSpace(m[1])
			for _, f := range []string{family, strings.ReplaceAll(family, " ", "")} {
				k := compact(f + " " + m[2])
				if cur, ok := out[k]; !ok || minor > cur {
					out[k] = minor
				}
			}
		}
	}
	return out
}

// bracketName matches the marketing name pci.ids puts in brackets.
var bracketName = regexp.MustCompile(`\[([^\]]+)\]`)

// AliasesFrom builds the alias table from the matrix (adapter names,
// aliases, PCI ids, pci.ids names and chip numbers, part numbers and board
// names, vendor names and aliases,
// driver and stack ids and names) and from the glossary (terms and their
// aliases). terms may be nil.
func AliasesFrom(m *matrix.Matrix, terms []content.Term) *Aliases {
	a := NewAliases()
	if m != nil {
		for _, v := range m.Vendors {
			a.Add(v.ID, append([]string{v.Name}, v.Aliases...)...)
		}
		for _, ad := range m.Adapters {
			names := append([]string{ad.Name}, ad.Aliases...)
			vendor := m.Vendor(ad.Vendor)
			hasPF := slices.ContainsFunc(ad.PCI, func(p matrix.PCIID) bool { return p.Function != "vf" })
			for _, p := range ad.PCI {
				names = append(names, p.ID)
				if p.Function == "vf" && hasPF {
					// A physical function's adapter is not searched for
					// by its virtual function's name ("ConnectX-5 Virtual
					// Function"); an adapter entry that is the virtual
					// function (ConnectX-3 Virtual Function) is.
					continue
				}
				if f := strings.Fields(p.Name); len(f) > 0 && modelNumber.MatchString(f[0]) {
					names = append(names, f[0])
					if d := chipDigits.FindStringSubmatch(f[0]); d != nil && vendor != nil {
						names = append(names, vendor.Name+" "+d[1])
					}
				}
				if b := bracketName.FindStringSubmatch(p.Name); b != nil {
					names = append(names, b[1])
				}
			}
			a.Add(ad.ID, names...)
			if ad.Vendor != "" {
				a.owner[strings.ToLower(ad.ID)] = strings.ToLower(ad.Vendor)
			}
		}
		for _, p := range m.Parts {
			a.Add(p.Adapter, p.Number)
			if b := partBase(p.Number); b != "" {
				a.Add(p.Adapter, b)
			}
			if b := matrix.BoardName(p.Number); b != "" {
				a.Add(p.Adapter, b)
			}
		}
		for _, d := range m.Drivers {
			a.Add(d.ID, d.EthDrivers...)
			// rdma-core builds a provider as the library lib<provider>
			// (libmlx5, libhns, libbnxt_re), the name its packages,
			// patches and warnings use.
			if d.RDMACoreProvider != "" {
				a.Add(d.ID, "lib"+d.RDMACoreProvider)
			}
			if f := moduleFamily(d.ID, d.EthDrivers); f != "" {
				a.Add(d.ID, f)
			}
		}
		for _, l := range m.FWLines {
			for _, id := range l.Adapters {
				a.fwLine[l.Major] = addSorted(a.fwLine[l.Major], strings.ToLower(id))
			}
		}
		for _, s := range m.Stacks {
			a.Add(s.ID, s.Name)
		}
		// A distro release by its id's words ("rhel 9.4", "ubuntu 22.04
		// hwe") and its name: its page, whose ids hold it, then ranks
		// above a page that only mentions the release.
		taken := map[string]bool{}
		for _, d := range m.Distros {
			taken[compact(d.ID)], taken[compact(d.Name)] = true, true
		}
		latest := latestMinors(m.Distros)
		for _, d := range m.Distros {
			a.Add(d.ID, append([]string{d.Name}, distroNames(d.ID, d.Name, taken, latest)...)...)
		}
	}
	for _, t := range terms {
		a.Add(t.ID, append([]string{t.Term}, t.Aliases...)...)
	}
	return a
}

// shows returns the names as given, sorted.
func (a *Aliases) shows() []string {
	out := make([]string, 0, len(a.names))
	for k := range a.names {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Words returns every raw token of every registered name, sorted: the
// static index adds them to its vocabulary so the browser knows alias
// spellings that no page uses.
func (a *Aliases) Words() []string {
	out := make([]string, 0, len(a.words))
	for k := range a.words {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// line returns the adapters of firmware line major.
func (a *Aliases) line(major string) []string {
	if a == nil {
		return nil
	}
	return a.fwLine[major]
}

// FirmwareLines returns the firmware line → adapters table of the firmware
// versions a query names, for the static index's manifest.
func (a *Aliases) FirmwareLines() map[string][]string {
	if a == nil {
		return nil
	}
	return a.fwLine
}

// Owners returns the adapter → vendor table of Qualifiers, for the static
// index's shards (their o tables).
func (a *Aliases) Owners() map[string]string {
	if a == nil {
		return nil
	}
	return a.owner
}

// Qualifiers drops the tokens at the positions where a query names a
// vendor beside one of the vendor's own adapters ("Mellanox ConnectX-5",
// the "Mellanox Technologies MT27800 Family [ConnectX-5]" of an lspci
// line): there the vendor only says whose adapter it is, and its page,
// which names every model of the vendor, would otherwise outrank the
// adapter's. A term names an adapter or vendor by its id whatever its
// kind (the ident connectx-5 is the alias's term too); a position that
// also names an adapter is kept.
func (a *Aliases) Qualifiers(toks []Token) []Token {
	if a == nil {
		return toks
	}
	return dropQualifiers(a.owner, toks)
}

// dropQualifiers is Qualifiers with the adapter → vendor table owner (the
// static index's, from the o tables of the query's shards).
func dropQualifiers(owner map[string]string, toks []Token) []Token {
	if len(owner) == 0 {
		return toks
	}
	owners := map[string]bool{} // vendors whose adapter the query names
	adapterAt := map[int]bool{}
	for _, t := range toks {
		if v, ok := owner[t.Term]; ok {
			owners[v] = true
			adapterAt[t.Pos] = true
		}
	}
	drop := map[int]bool{}
	for _, t := range toks {
		if owners[t.Term] && !adapterAt[t.Pos] {
			drop[t.Pos] = true
		}
	}
	if len(drop) == 0 {
		return toks
	}
	out := make([]Token, 0, len(toks))
	for _, t := range toks {
		if !drop[t.Pos] {
			out = append(out, t)
		}
	}
	return out
}
