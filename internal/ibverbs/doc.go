// Package ibverbs provides parsers for the RDMA user-space tools' views of
// devices and ports: rdma-core's `ibv_devinfo` (plain, -v, -vvv and -l) and
// `ibv_devices`, infiniband-diags' `ibstat` and `ibstatus`, and the
// MLNX_OFED scripts `show_gids` and `ibdev2netdev` (plain and -v); and the
// PCI id ibv_devinfo's vendor_id and vendor_part_id name (PCIID).
package ibverbs
