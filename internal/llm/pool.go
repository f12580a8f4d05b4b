package llm

import (
	"path/filepath"
	"sync"
)

// Pool hands out one client per model, all made from the same options; a
// stage keeps one pool so that a model's requests share its concurrency
// limit and reply cache.
type Pool struct {
	opts    Options
	mu      sync.Mutex
	clients map[string]*Client
}

// NewPool returns a pool over o. Without a cache folder, replies are cached
// in the data folder's llm_cache.
func NewPool(o Options, dataDir string) *Pool {
	return &Pool{opts: o.WithCache(dataDir), clients: map[string]*Client{}}
}

// WithCache is o with the data folder's llm_cache as its cache, unless o names one.
func (o Options) WithCache(dataDir string) Options {
	if o.CacheDir == "" {
		o.CacheDir = filepath.Join(dataDir, "llm_cache")
	}
	return o
}

// Client returns the model's client, made on first use.
func (p *Pool) Client(model string) *Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.clients[model]; c != nil {
		return c
	}
	o := p.opts
	o.Model = model
	c := New(o)
	p.clients[model] = c
	return c
}
