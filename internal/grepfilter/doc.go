// Package grepfilter reads the pipeline a pasted output went through
// after its command ("lsmod | grep -i -E 'rxe|mlx5'") and says whether it
// surely let a given line through: grep, egrep and fgrep stages of word
// alternatives, with -i, -E, -F, -w, -e and --color.
package grepfilter
