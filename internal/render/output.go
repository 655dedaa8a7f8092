package render

import (
	"bytes"
	"io"
	"io/fs"
	"path"
)

// Output is one file of the built site. Render is called once, on any
// goroutine; what it writes must depend only on the output itself, so a
// build is byte-identical whatever the scheduling.
type Output interface {
	Path() string // slash path in the site, e.g. adapter/connectx-5.html
	Render(w io.Writer) error
}

// Producer emits a stage of outputs. emit blocks while the writers are
// busy, so a producer may make its outputs as it goes rather than first.
type Producer func(emit func(Output) error) error

// Bytes is an output whose contents are known.
func Bytes(name string, b []byte) Output { return bytesOutput{name, b} }

type bytesOutput struct {
	name string
	b    []byte
}

func (o bytesOutput) Path() string { return o.name }
func (o bytesOutput) Render(w io.Writer) error {
	_, err := w.Write(o.b)
	return err
}

// Func is an output made by a function when it is written.
func Func(name string, write func(w io.Writer) error) Output { return funcOutput{name, write} }

type funcOutput struct {
	name  string
	write func(io.Writer) error
}

func (o funcOutput) Path() string             { return o.name }
func (o funcOutput) Render(w io.Writer) error { return o.write(w) }

// Static emits every file under static/ in the layers, a later layer's
// file replacing an earlier one's of the same name.
func Static(layers Layers) Producer {
	return func(emit func(Output) error) error {
		files, err := layers.files("static")
		if err != nil {
			return err
		}
		for _, name := range sortedKeys(files) {
			fsys, name := files[name], name
			err := emit(Func(name, func(w io.Writer) error {
				b, err := fs.ReadFile(fsys, path.Join("static", name))
				if err != nil {
					return err
				}
				_, err = io.Copy(w, bytes.NewReader(b))
				return err
			}))
			if err != nil {
				return err
			}
		}
		return nil
	}
}
