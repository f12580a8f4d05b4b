package deploy

import "github.com/solbehave/solbehave/internal/etherscan"

// Corpus is a recorded corpus folder: its contracts, listed once, and the
// one recorded Etherscan client that serves their records.
type Corpus struct {
	Entries []etherscan.Entry
	client  *etherscan.Client
}

// OpenCorpus lists a corpus folder and opens its recorded client.
func OpenCorpus(dir string) (*Corpus, error) {
	entries, err := etherscan.ListCorpus(dir)
	if err != nil {
		return nil, err
	}
	client, err := etherscan.NewRecorded(dir)
	if err != nil {
		return nil, err
	}
	return &Corpus{Entries: entries, client: client}, nil
}

// Load reads one contract's record with its first limit transactions (see Load).
func (c *Corpus) Load(e etherscan.Entry, limit int) (*Record, error) {
	return Load(c.client, e, limit)
}

// LoadRecord reads one contract of the corpus folder dir: for a unit that
// needs its own contract's record only.
func LoadRecord(dir string, e etherscan.Entry, limit int) (*Record, error) {
	client, err := etherscan.NewRecorded(dir)
	if err != nil {
		return nil, err
	}
	return Load(client, e, limit)
}
