package matrix

// Distro returns the distro release with the given id, or nil.
func (m *Matrix) Distro(id string) *Distro {
	for i := range m.Distros {
		if m.Distros[i].ID == id {
			return &m.Distros[i]
		}
	}
	return nil
}

// Stack returns the stack with the given id, or nil.
func (m *Matrix) Stack(id string) *Stack {
	for i := range m.Stacks {
		if m.Stacks[i].ID == id {
			return &m.Stacks[i]
		}
	}
	return nil
}

// DeviceKernel returns the first-kernel row for a PCI id: the row for its
// subsystem when there is one, else the plain row; nil when none is known.
func (m *Matrix) DeviceKernel(id, subsystem string) *PCIKernel {
	var plain *PCIKernel
	for i := range m.PCIKernels {
		k := &m.PCIKernels[i]
		if k.PCI != id {
			continue
		}
		if subsystem != "" && k.Subsystem == subsystem {
			return k
		}
		if k.Subsystem == "" && plain == nil {
			plain = k
		}
	}
	return plain
}

// PartsOf returns the part numbers documented for an adapter, in file order.
func (m *Matrix) PartsOf(adapter string) []PartNumber {
	var out []PartNumber
	for _, p := range m.Parts {
		if p.Adapter == adapter {
			out = append(out, p)
		}
	}
	return out
}
