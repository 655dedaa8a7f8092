// Package supportconfig splits the files of a SUSE supportconfig
// (basic-environment.txt, hardware.txt, modules.txt, boot.txt,
// messages.txt, network.txt, ib.txt …) into their sections: each starts
// with a "#==[ Command ]====…#", "#==[ Configuration File ]====…#" or
// "#==[ Log File ]====…#" header and a "# <label>" line (bin/supportconfig
// and bin/supportconfig.rc in SUSE/supportutils: _log_cmd, conf_files,
// log_files), so the snapshot can offer each command's output, file and
// log where the collector looks for them.
package supportconfig
