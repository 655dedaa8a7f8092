package collect

import (
	"path"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/mlxconfig"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
)

// mlxconfig reads each configuration query (mlxconfig or mstconfig) the
// snapshot holds into the host's mlxconfig table, with the parameters
// record.MlxConfigKept names. A device named by its PCI address is tied
// to that adapter's function; an mst device is kept as printed. A block
// that lost its header takes the device from the file's name.
func (c *collector) mlxconfig() {
	row, _ := source.Of(source.ID("sos_commands/mellanox_firmware/mlxconfig_-d_0000_01_00.0_-e_q"))
	c.eachGlobbed(row, func(p string, r snapshot.Result) {
		c.parse(p, func() error {
			out, err := mlxconfig.Parse(reader(r))
			if err != nil {
				return err
			}
			for _, d := range out.Devices {
				dev := d.Device
				if dev == "" {
					dev = mlxconfigDevice(path.Base(p))
				}
				mc := record.MlxConfig{Device: dev, PCIAddress: pciAddress(dev), DeviceType: d.Type, Name: d.Name, Columns: d.Columns, Source: p, Line: d.Line}
				for _, pa := range d.Params {
					if !record.MlxConfigKept(pa.Name) {
						continue
					}
					rp := record.MlxConfigParam{Name: pa.Name, Default: pa.Default, Current: pa.Current, NextBoot: pa.NextBoot, Modified: pa.Modified, Line: pa.Line}
					if d.Columns == nil && len(pa.Values) == 1 {
						rp.Value = pa.Values[0]
					}
					mc.Params = append(mc.Params, rp)
				}
				if mc.Device == "" && mc.DeviceType == "" && len(mc.Params) == 0 {
					continue // nothing kept and nothing to name it by
				}
				c.h.MlxConfig = append(c.h.MlxConfig, mc)
			}
			return nil
		})
	})
	sort.SliceStable(c.h.MlxConfig, func(i, j int) bool { return c.h.MlxConfig[i].Device < c.h.MlxConfig[j].Device })
}

// mlxconfigDevice is the device in an output's file name, as sos writes
// the command line: "mlxconfig_-d_0000_3b_00.0_-e_q" → "0000:3b:00.0",
// "mstconfig_-d_.dev.mst.mt4119_pciconf0_q" → "/dev/mst/mt4119_pciconf0";
// "pasted" (a paste with no command line) names none.
func mlxconfigDevice(base string) string {
	_, rest, ok := strings.Cut(base, "_-d_")
	if !ok {
		return ""
	}
	dev, _, _ := strings.Cut(rest, "_-")
	dev = strings.TrimSuffix(strings.TrimSuffix(dev, "_query"), "_q")
	if m, ok := strings.CutPrefix(dev, ".dev.mst."); ok {
		return "/dev/mst/" + m
	}
	if a := pciAddress(dev); a != "" {
		return a
	}
	return ""
}
