package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/render"
)

func newServeCmd() *cobra.Command {
	var addr, dir string
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve a built site for local preview",
		Long: `Serve a built site (the output of 'kbgen build') over HTTP for local preview.

It listens on 127.0.0.1 by default so the preview is not exposed to the network.

Example:
  kbgen build && kbgen serve --addr 127.0.0.1:8080
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if _, err := os.Stat(dir + "/" + render.Marker); err != nil {
				return cli.Usagef("%s is not a kbgen site (run 'kbgen build' first)", dir)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return cli.Usage(err)
			}
			fmt.Fprintf(c.OutOrStdout(), "serving %s on http://%s/ (Ctrl-C to stop)\n", dir, ln.Addr())
			srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return cli.Fail(err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	c.Flags().StringVarP(&dir, "dir", "d", "public", "site folder to serve")
	return c
}
