// Package sysinfosnapshot splits the output of NVIDIA's sysinfo-snapshot
// (sysinfo-snapshot.py in github.com/Mellanox/linux-sysinfo-snapshot) into
// per-command outputs: the sections of its main HTML file (each an anchor
// <a name="secN">, a <h2> title naming the command, handler or file, and a
// <p> holding the output with < and > escaped and, since 3.2.0, newlines
// as <br/> and tabs as four &nbsp;), the files of commands_txt_output/
// (since 3.6.1: "Invoked Command: <command>" on line 1, then the output),
// firmware/ and rdma_tool/ (the command line on line 1), and the
// "ethtool <option> <netdev>" blocks of its ethtool_all_interfaces section,
// so the snapshot can offer each output where the collector looks for it.
package sysinfosnapshot
