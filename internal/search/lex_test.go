package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLexMatchesPatterns checks the hand-written matchers against the
// patterns they implement, on every raw token and text of the bundled
// knowledge base and on random strings of the characters that matter;
// each distinct text and word once (every check is a function of it
// alone, and most words are in many texts).
func TestLexMatchesPatterns(t *testing.T) {
	_, _, docs := loadBundled(t)
	var texts []string
	for i := range docs {
		for _, f := range Fields {
			texts = append(texts, fieldText(&docs[i], f))
		}
	}
	texts = append(texts, goldenQueries...)
	for _, q := range loadQueries(t).Query {
		texts = append(texts, q.Q)
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "f", "x", "t", "z", "v", "0", "1", "9", "_", "-", ".", ":", "+", "(", ")", " ", "é", "模", "式", "ア", "\xff", "X", "Q"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := r.IntN(14); n >= 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	seenText, seenWord := map[string]bool{}, map[string]bool{}
	for _, text := range texts {
		if seenText[text] {
			continue
		}
		seenText[text] = true
		var want [][2]int
		for _, l := range rawRe.FindAllStringIndex(text, -1) {
			want = append(want, [2]int{l[0], l[1]})
		}
		if got := rawSpans(text); !slices.Equal(got, want) {
			t.Fatalf("rawSpans(%q) = %v, want %v", text, got, want)
		}
		if got, want := compactFast(text), compactRe.ReplaceAllString(strings.ToLower(text), ""); got != want {
			t.Fatalf("compact(%q) = %q, want %q", text, got, want)
		}
		words := []string{strings.ToLower(text)}
		for _, sp := range want {
			words = append(words, strings.ToLower(text[sp[0]:sp[1]]))
		}
		for _, w := range words {
			if seenWord[w] {
				continue
			}
			seenWord[w] = true
			if got, want := isNoise(w), noiseRe.MatchString(w); got != want {
				t.Fatalf("isNoise(%q) = %v", w, got)
			}
			if got, want := isNumber(w), numberRe.MatchString(w); got != want {
				t.Fatalf("isNumber(%q) = %v", w, got)
			}
			if got, want := isAlpha(w), alphaRe.MatchString(w); got != want {
				t.Fatalf("isAlpha(%q) = %v", w, got)
			}
			if got, want := versionPrefix(w), versionRe.FindString(w); got != want {
				t.Fatalf("versionPrefix(%q) = %q, want %q", w, got, want)
			}
			if want, got := splitRe.Split(w, -1), splitParts(w); !slices.Equal(got, want) {
				t.Fatalf("splitParts(%q) (-regexp +ours):\n%s", w, cmp.Diff(want, got))
			}
		}
	}
	t.Logf("%d texts: %d distinct, and %d distinct words checked", len(texts), len(seenText), len(seenWord))
}
