// Command seedvectors prints reference values of Go's hash/crc64 (ECMA table) and
// math/rand as JSON, for tests/test_seeds.py:
//
//	go run tests/go/seedvectors.go > tests/data/seed_vectors.json
//
// "seeds": for each seed string, the bytes hanab.live hashes, their CRC-64, the int64
// seed derived from it, the first Int63 values after seeding, and the index permutation
// the server's deal loop produces for decks of several sizes (deck[i] = the card at index
// perm[i] of the unshuffled deck); every entry reseeds. The prefix rule ("legacy-" =>
// drop the first len("legacy-x-") bytes) is the server's setSeed.
//
// "variant_seeds": hanab.live seeds of 26 variants of the site (every deck size its
// variants have: 30, 32, 40, 45, 50, 51, 54, 55, 60 cards), each with the server's deal
// permutation for that variant's deck size; tests/test_seeds.py applies it to the deck in
// InitDeck order (tests/siteoracle.py) and compares the deal the project makes.
//
// "raw": for int64 seeds, one stream of Int63, Uint64, Int31, Intn, Int31n and Int63n
// values, then Int63 after 1000 more draws. "crc64": checksums of byte strings (hex).
//
// The server seeds the global source with rand.Seed; this program uses
// rand.New(rand.NewSource(seed)), the same generator and stream (Go 1.20 and later only
// change how the global source is seeded when rand.Seed is never called, and Go 1.24
// makes rand.Seed a no-op unless GODEBUG=randseednop=0), so its output does not depend
// on the Go version.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc64"
	"math/rand"
	"os"
	"reflect"
	"strings"
)

var seeds = []string{
	"p3v0s1", "p5v0s198", "p2v0s1", "p2v0s2", "p4v0s17", "p6v0s5",
	"p2v1s1", "p3v1s42", "p2v21s3", "p4v2s9", "p3v16s7", "p5v3s11",
	"", "a", "hello world", "p3v0s", "legacy-1-p3v0s1", "legacy-9-abc",
	"JSON", "\u00e9t\u00e9", "p2v0sXyZ-123",
}

type variantSeed struct {
	Variant   string `json:"variant"`
	Seed      string `json:"seed"`
	Size      int    `json:"size"`
	Int64Seed int64  `json:"int64_seed"`
	Perm      []int  `json:"perm"`
}

// hanab.live variants (name, seed, deck size): the id in the seed is the site's
var variantSeeds = []variantSeed{
	{Variant: "3 Suits", Seed: "p2v18s1", Size: 30},
	{Variant: "Prism (3 Suits)", Seed: "p3v1467s5", Size: 30},
	{Variant: "Omni (3 Suits)", Seed: "p4v179s12", Size: 30},
	{Variant: "4 Suits", Seed: "p2v15s7", Size: 40},
	{Variant: "Rainbow (4 Suits)", Seed: "p5v17s3", Size: 40},
	{Variant: "Odds and Evens (4 Suits)", Seed: "p3v1812s9", Size: 40},
	{Variant: "Dark Rainbow (5 Suits)", Seed: "p2v23s100", Size: 45},
	{Variant: "Critical Fours (5 Suits)", Seed: "p4v1822s2", Size: 45},
	{Variant: "Scarce Ones (5 Suits)", Seed: "p3v2394s8", Size: 45},
	{Variant: "Cocoa Rainbow (5 Suits)", Seed: "p6v291s4", Size: 45},
	{Variant: "Pink (5 Suits)", Seed: "p2v107s2000", Size: 50},
	{Variant: "Null (5 Suits)", Seed: "p3v181s77", Size: 50},
	{Variant: "Black & Dark Rainbow (6 Suits)", Seed: "p5v12s6", Size: 50},
	{Variant: "Critical Fours (6 Suits)", Seed: "p2v1821s13", Size: 54},
	{Variant: "Critical Fours & Rainbow (6 Suits)", Seed: "p6v1823s1", Size: 54},
	{Variant: "Dark Null (6 Suits)", Seed: "p4v255s21", Size: 55},
	{Variant: "Brown & Dark Pink (6 Suits)", Seed: "p3v144s3", Size: 55},
	{Variant: "Orange (6 Suits)", Seed: "p2v2130s5", Size: 60},
	{Variant: "Muddy Rainbow (6 Suits)", Seed: "p4v160s11", Size: 60},
	{Variant: "Synesthesia (6 Suits)", Seed: "p6v1353s2", Size: 60},
	{Variant: "Sudoku (4 Suits)", Seed: "p3v2092s5", Size: 32},
	{Variant: "Sudoku & Rainbow (4 Suits)", Seed: "p4v2093s14", Size: 32},
	{Variant: "Sudoku (5 Suits)", Seed: "p2v2072s9", Size: 50},
	{Variant: "Up or Down (5 Suits)", Seed: "p2v24s3", Size: 45},
	{Variant: "Up or Down & Black (6 Suits)", Seed: "p3v2107s8", Size: 51},
	{Variant: "Reversed (5 Suits)", Seed: "p5v1343s21", Size: 50},
}

// deck sizes of the built-in variants: 50 (5 suits), 60 (6 suits), 45 (black 5),
// 55 (black 6), plus a few others; the first seeds also get a deck of 700, whose 700
// draws wrap around the generator's 607-word state
var deckSizes = []int{50, 60, 45, 55, 1, 7}

// arguments for Intn/Int31n/Int63n straight after seeding: powers of two, the
// rejection path, and n > 1<<31-1 (Intn via Int63n)
var intnArgs = []int64{1, 2, 3, 5, 7, 8, 10, 50, 64, 1000, 1 << 30, (1 << 31) - 1, 1 << 31, 3 << 31, 1<<62 + 12345, (1 << 63) - 1}

// raw int64 seeds for rand.Seed (the seed % int32max reduction, negatives, zero)
var rawSeeds = []int64{0, 1, -1, 2147483647, -2147483647, 2147483648, 89482311, -9223372036854775808, 9223372036854775807, 1234567890123456789}

type seedVector struct {
	Seed      string           `json:"seed"`
	Hashed    string           `json:"hashed"`
	CRC64     uint64           `json:"crc64"`
	Int64Seed int64            `json:"int64_seed"`
	Int63     []int64          `json:"int63"`
	Perms     map[string][]int `json:"perms"`
}

type rawVector struct {
	Seed   int64      `json:"seed"`
	Int63  []int64    `json:"int63"`
	Uint64 []uint64   `json:"uint64"`
	Int31  []int32    `json:"int31"`
	Intn   [][2]int64 `json:"intn"`
	Int31n [][2]int64 `json:"int31n"`
	Int63n [][2]int64 `json:"int63n"`
	Long   []int64    `json:"int63_after_1000"`
}

// serverSeed is hanab.live's setSeed: strip a legacy prefix, CRC-64/ECMA, int64
func serverSeed(seed string) (string, uint64, int64) {
	hashed := seed
	if strings.HasPrefix(hashed, "legacy-") {
		hashed = hashed[len("legacy-x-"):]
	}
	sum := crc64.Checksum([]byte(hashed), crc64.MakeTable(crc64.ECMA))
	return hashed, sum, int64(sum)
}

func main() {
	out := map[string]interface{}{}
	var sv []seedVector
	for _, s := range seeds {
		hashed, sum, seed := serverSeed(s)
		v := seedVector{Seed: s, Hashed: hashed, CRC64: sum, Int64Seed: seed, Perms: map[string][]int{}}
		r := rand.New(rand.NewSource(seed))
		for i := 0; i < 8; i++ {
			v.Int63 = append(v.Int63, r.Int63())
		}
		sizes := deckSizes
		if len(sv) < 3 {
			sizes = append(append([]int{}, deckSizes...), 700)
		}
		for _, n := range sizes {
			r := rand.New(rand.NewSource(seed))
			perm := make([]int, n)
			for i := range perm {
				perm[i] = i
			}
			for i := range perm {
				j := r.Intn(i + 1)
				perm[i], perm[j] = perm[j], perm[i]
			}
			v.Perms[itoa(n)] = perm
		}
		sv = append(sv, v)
	}
	out["seeds"] = sv

	var vs []variantSeed
	for _, v := range variantSeeds {
		_, _, seed := serverSeed(v.Seed)
		v.Int64Seed = seed
		r := rand.New(rand.NewSource(seed))
		v.Perm = make([]int, v.Size)
		for i := range v.Perm {
			v.Perm[i] = i
		}
		for i := range v.Perm {
			j := r.Intn(i + 1)
			v.Perm[i], v.Perm[j] = v.Perm[j], v.Perm[i]
		}
		vs = append(vs, v)
	}
	out["variant_seeds"] = vs

	var rv []rawVector
	for _, s := range rawSeeds {
		v := rawVector{Seed: s}
		r := rand.New(rand.NewSource(s))
		for i := 0; i < 5; i++ {
			v.Int63 = append(v.Int63, r.Int63())
		}
		for i := 0; i < 3; i++ {
			v.Uint64 = append(v.Uint64, r.Uint64())
		}
		for i := 0; i < 3; i++ {
			v.Int31 = append(v.Int31, r.Int31())
		}
		for _, n := range intnArgs {
			v.Intn = append(v.Intn, [2]int64{n, int64(r.Intn(int(n)))})
		}
		for _, n := range intnArgs {
			if n <= (1<<31)-1 {
				v.Int31n = append(v.Int31n, [2]int64{n, int64(r.Int31n(int32(n)))})
			}
		}
		for _, n := range intnArgs {
			v.Int63n = append(v.Int63n, [2]int64{n, r.Int63n(n)})
		}
		for i := 0; i < 1000; i++ {
			r.Int63()
		}
		for i := 0; i < 3; i++ {
			v.Long = append(v.Long, r.Int63())
		}
		rv = append(rv, v)
	}
	out["raw"] = rv

	// CRC-64 of raw byte strings (given in hex: JSON strings cannot hold every byte string)
	var crcs [][2]interface{}
	for _, s := range []string{"", "123456789", "The quick brown fox jumps over the lazy dog", strings.Repeat("\xff", 100), "\x00\x01\x80"} {
		crcs = append(crcs, [2]interface{}{hex.EncodeToString([]byte(s)), crc64.Checksum([]byte(s), crc64.MakeTable(crc64.ECMA))})
	}
	out["crc64"] = crcs

	writeJSON(out, []string{"crc64", "seeds", "variant_seeds", "raw"})
}

// writeJSON prints the object with one array element per line (readable diffs)
func writeJSON(out map[string]interface{}, keys []string) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	w.WriteString("{\n")
	for k, key := range keys {
		fmt.Fprintf(w, "%q: [\n", key)
		v := reflect.ValueOf(out[key])
		for i := 0; i < v.Len(); i++ {
			b, err := json.Marshal(v.Index(i).Interface())
			if err != nil {
				panic(err)
			}
			w.Write(b)
			if i < v.Len()-1 {
				w.WriteString(",")
			}
			w.WriteString("\n")
		}
		w.WriteString("]")
		if k < len(keys)-1 {
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	w.WriteString("}\n")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
