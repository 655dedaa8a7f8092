// Package modprobe reads what stops a kernel module from loading: the
// blacklist and install directives of modprobe.d(5) configuration
// (/etc/modprobe.d/*.conf, /run, /usr/local/lib, /usr/lib and /lib
// modprobe.d, the older /etc/modprobe.conf; Parse), `grep -r` of those
// folders (ParseGrep), and the kernel command line's modprobe.blacklist=,
// module_blacklist= and dracut's rd.driver.blacklist= lists (/proc/cmdline;
// ParseCmdline). Module names are kept with '-' turned into '_', as kmod
// compares them.
package modprobe
