package grepfilter

import (
	"path"
	"regexp"
	"strings"
)

// filterWord is an alternative of a grep pattern read as a literal: the
// characters a module name has. A '.' matches any character, so a name
// holding the alternative matches it still.
var filterWord = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Passes reports whether a pipeline a pasted output went through
// (record.Source.Filter) surely lets through the line that starts with
// name, as lsmod prints a module: each stage is a grep (grep, egrep,
// fgrep) of word alternatives, and one of them is in name (with -w, is
// name). A stage it cannot read (-v, sed, head, a bracket expression …)
// lets nothing surely through. Several filters (pastes of one output) are
// joined by "; ": the name must pass one of them.
func Passes(filters, name string) bool {
	for _, f := range strings.Split(filters, "; ") {
		if pipelinePasses(f, name) {
			return true
		}
	}
	return false
}

func pipelinePasses(pipeline, name string) bool {
	for _, stage := range shellStages(pipeline) {
		if !grepPasses(stage, name) {
			return false
		}
	}
	return true
}

// shellStages splits a pipeline into its commands' words, as the shell
// does for quotes ('a|b' and "a|b" are one word, quotes removed) and
// unquoted '|' between commands.
func shellStages(s string) [][]string {
	var stages [][]string
	var words []string
	var w strings.Builder
	inWord, quote := false, rune(0)
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '|':
			end()
			stages, words = append(stages, words), nil
		case r == ' ' || r == '\t':
			end()
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	end()
	return append(stages, words)
}

// grepPasses reads one grep stage's words.
func grepPasses(words []string, name string) bool {
	if len(words) < 2 {
		return false
	}
	extended, fixed, fold, word := false, false, false, false
	switch path.Base(words[0]) {
	case "grep":
	case "egrep":
		extended = true
	case "fgrep":
		fixed = true
	default:
		return false
	}
	var pattern []string
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-e" && i+1 < len(words):
			i++
			pattern = append(pattern, words[i])
		case strings.HasPrefix(w, "--color"):
		case strings.HasPrefix(w, "-") && len(w) > 1 && !strings.HasPrefix(w, "--"):
			for _, f := range w[1:] {
				switch f {
				case 'i':
					fold = true
				case 'E':
					extended = true
				case 'F':
					fixed = true
				case 'w':
					word = true
				default: // -v inverts, -o and -n change the lines, -c counts
					return false
				}
			}
		case strings.HasPrefix(w, "-"):
			return false
		default:
			pattern = append(pattern, w)
		}
	}
	if len(pattern) != 1 {
		return false // no pattern, or a file after it
	}
	p := pattern[0]
	sep := `\|`
	if extended {
		sep = "|"
	}
	alts := []string{p}
	if !fixed {
		alts = strings.Split(p, sep)
	}
	n := name
	if fold {
		n = strings.ToLower(n)
	}
	for _, a := range alts {
		if !filterWord.MatchString(a) {
			return false // a pattern it cannot read surely: nothing passes surely
		}
	}
	for _, a := range alts {
		if fold {
			a = strings.ToLower(a)
		}
		if word && n == a || !word && strings.Contains(n, a) {
			return true
		}
	}
	return false
}
