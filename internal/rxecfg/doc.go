// Package rxecfg provides a parser for the output of rdma-core's old
// SoftRoCE script rxe_cfg (plain, `rxe_cfg status` and `rxe_cfg start`):
// the interface table read by its header's column offsets, and the Perl
// warnings, shell and configfs errors printed around it.
package rxecfg
