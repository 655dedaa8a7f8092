package page

import (
	"slices"
	"sync"
)

// Input is one thing a page reads while it is made, as a small number:
// one of the inputs every build has (InConfig … InRecords), or a named input
// (a content file, a record, a group of them) that an Inputs table
// numbers as pages first read it. The build digests each input once and
// keys a page on the digests of what it read (internal/build/keys.go), so
// that kbgen serve's update renders again exactly the pages whose inputs
// changed. A page that reads a whole collection records the collection,
// one number, never each of its members.
type Input uint32

// The inputs every build has.
const (
	// InConfig is kb.toml's settings and what every page's header shows
	// (whether there is a glossary, whether there are hosts).
	InConfig Input = iota
	// InMatrix is the whole matrix: a page's verdicts and citations read
	// across its tables.
	InMatrix
	// InTemplates is every template and what it calls.
	InTemplates
	// InFAQList is every FAQ page's front matter, in content order: which
	// pages there are, with their titles, tags, weights and languages.
	InFAQList
	// InTreeList is every troubleshooting tree.
	InTreeList
	// InGlossary is the glossary.
	InGlossary
	// InLinks is what a link in a page body may name: the pages, trees,
	// nodes and glossary terms there are (content.Structure).
	InLinks
	// InRecords is every host record, in the order the build read them,
	// with the page each was given.
	InRecords

	fixedInputs // the first named input
)

// Named is the kind of a named input.
type Named uint8

const (
	// InFile is one content file, whole (front matter and body): an FAQ
	// page's .md or a tree's .toml, named by its path under the content
	// folder as content reports it.
	InFile Named = iota + 1
	// InFront is one FAQ page's front matter, named by its file.
	InFront
	// InRecord is one host record: its bytes and the page it was given.
	// Each record is its own input (Inputs.Add), named by its file.
	InRecord
	// InGroup is a set of inputs read as one, named by what chose them
	// ("translations/<key>": the FAQ pages sharing a translation key;
	// "adapter-faq/<id>": the FAQ pages naming an adapter;
	// "tag/<slug>": the pages with a tag; "fleet/<id>": the records of
	// the hosts running an adapter). Its members are in the order the
	// page reads them; who belongs is decided when the group is made,
	// so a page that gains or loses a member changes the group.
	InGroup
)

// InputName is what a named input is.
type InputName struct {
	Kind Named
	Name string
}

// Inputs numbers the named inputs of one build. It is safe for use by
// several goroutines. The zero Inputs is empty and ready.
type Inputs struct {
	mu      sync.Mutex
	ids     map[InputName]Input
	names   []InputName // by Input - fixedInputs
	members map[Input][]Input
}

// ID returns the number of the named input, numbering it if it is new.
func (in *Inputs) ID(kind Named, name string) Input {
	in.mu.Lock()
	defer in.mu.Unlock()
	n := InputName{kind, name}
	if id, ok := in.ids[n]; ok {
		return id
	}
	if in.ids == nil {
		in.ids = map[InputName]Input{}
	}
	id := fixedInputs + Input(len(in.names))
	in.ids[n] = id
	in.names = append(in.names, n)
	return id
}

// Add numbers a new named input without looking for an earlier one of the
// same name: for inputs each read once, by one page (a host record), so
// that a fleet's records are not kept in a map.
func (in *Inputs) Add(kind Named, name string) Input {
	in.mu.Lock()
	defer in.mu.Unlock()
	id := fixedInputs + Input(len(in.names))
	in.names = append(in.names, InputName{kind, name})
	return id
}

// Lookup returns the number of a named input some page read, or false.
func (in *Inputs) Lookup(kind Named, name string) (Input, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	id, ok := in.ids[InputName{kind, name}]
	return id, ok
}

// Group returns the number of the group name, whose members are members:
// the first call for a name decides them, later calls return its number.
func (in *Inputs) Group(name string, members []Input) Input {
	id := in.ID(InGroup, name)
	in.mu.Lock()
	defer in.mu.Unlock()
	if _, ok := in.members[id]; !ok {
		if in.members == nil {
			in.members = map[Input][]Input{}
		}
		in.members[id] = slices.Clone(members)
	}
	return id
}

// Name returns what the input id is: ok is false for an input every
// build has (InConfig … InRecords) and for a number Inputs did not give.
func (in *Inputs) Name(id Input) (InputName, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if id < fixedInputs || int(id-fixedInputs) >= len(in.names) {
		return InputName{}, false
	}
	return in.names[id-fixedInputs], true
}

// Members returns the members of the group id.
func (in *Inputs) Members(id Input) []Input {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.members[id]
}

// Len is one more than the largest number given: the inputs are numbered
// below it.
func (in *Inputs) Len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return int(fixedInputs) + len(in.names)
}

// Deps is what one page read: a bit per input every build has, and the
// named inputs' numbers, sorted. Most pages read only fixed inputs and
// hold no slice. The zero Deps is empty and ready.
type Deps struct {
	fixed uint32
	named []Input
}

// Read records that the page read the input id.
func (d *Deps) Read(id Input) {
	if id < fixedInputs {
		d.fixed |= 1 << id
		return
	}
	i, found := slices.BinarySearch(d.named, id)
	if !found {
		d.named = slices.Insert(d.named, i, id)
	}
}

// Has reports whether the page read the input id.
func (d *Deps) Has(id Input) bool {
	if id < fixedInputs {
		return d.fixed&(1<<id) != 0
	}
	_, found := slices.BinarySearch(d.named, id)
	return found
}

// Each calls f with every input the page read, in increasing order.
func (d *Deps) Each(f func(Input)) {
	for id := Input(0); id < fixedInputs; id++ {
		if d.fixed&(1<<id) != 0 {
			f(id)
		}
	}
	for _, id := range d.named {
		f(id)
	}
}

// Empty reports whether the page recorded nothing.
func (d *Deps) Empty() bool { return d.fixed == 0 && len(d.named) == 0 }
