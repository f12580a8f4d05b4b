package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
)

//go:embed hardhat.js
var hardhatScript []byte

//go:embed hardhat.config.js
var hardhatConfig []byte

// HardhatPackage is what npm installs: Hardhat 2, whose EDR network runs on
// Node 20 (Hardhat 3 needs Node 22).
const HardhatPackage = "hardhat@2"

// Hardhat is an installed Hardhat 2 with the bench's driver script.
type Hardhat struct {
	Dir     string // holds node_modules/hardhat, hardhat.config.js and hardhat.js
	Version string
	Node    string
}

// InstallHardhat installs Hardhat 2 into <cache>/hardhat unless it is there
// already, and writes the driver script and config beside it. The install
// goes to a temporary folder renamed into place, so a crash or a concurrent
// run never leaves a half-installed cache.
func InstallHardhat(ctx context.Context, cache string, timeout time.Duration) (*Hardhat, error) {
	dir := filepath.Join(cache, "hardhat")
	if _, err := hardhatVersion(dir); err != nil {
		if err := npmInstall(ctx, cache, dir, timeout); err != nil {
			return nil, err
		}
	}
	v, err := hardhatVersion(dir)
	if err != nil {
		return nil, err
	}
	for name, body := range map[string][]byte{"hardhat.js": hardhatScript, "hardhat.config.js": hardhatConfig} {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			return nil, err
		}
	}
	return &Hardhat{Dir: dir, Version: v, Node: "node"}, nil
}

func npmInstall(ctx context.Context, cache, dir string, timeout time.Duration) error {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	return atomicfile.Dir(dir, func(tmp string) error {
		if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error", HardhatPackage)
		cmd.Dir = tmp
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("npm install %s (limit %s): %w\n%s", HardhatPackage, timeout, err, tail(out.String(), 2000))
		}
		return nil
	})
}

func hardhatVersion(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "hardhat", "package.json"))
	if err != nil {
		return "", fmt.Errorf("hardhat not installed in %s: %w", dir, err)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", fmt.Errorf("hardhat package.json: %w", err)
	}
	if !strings.HasPrefix(pkg.Version, "2.") {
		return "", fmt.Errorf("hardhat %s in %s, want 2.x", pkg.Version, dir)
	}
	return pkg.Version, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// hardhatJob is what hardhat.js replays: the creation and the transactions.
type hardhatJob struct {
	Runs      int          `json:"runs"`
	Deployer  string       `json:"deployer"`
	Nonce     uint64       `json:"nonce"`
	Address   string       `json:"address"`
	Creation  string       `json:"creation"`
	Value     string       `json:"value"`
	Gas       uint64       `json:"gas"`
	Block     uint64       `json:"block"`
	Time      uint64       `json:"time"`
	Libraries []hardhatLib `json:"libraries,omitempty"`
	Txs       []hardhatTx  `json:"txs"`
}

type hardhatLib struct {
	Address string `json:"address"`
	Code    string `json:"code"`
}

type hardhatTx struct {
	From   string `json:"from"`
	Data   string `json:"data"`
	Value  string `json:"value"`
	Gas    uint64 `json:"gas"`
	Number uint64 `json:"number"`
	Time   uint64 `json:"time"`
}

// hardhatResult is hardhat.js's answer.
type hardhatResult struct {
	Hardhat   string       `json:"hardhat"`
	StartupNS int64        `json:"startup_ns"`
	Runs      []hardhatRun `json:"runs"`
	Error     string       `json:"error"`

	MaxRSS int64 `json:"-"` // bytes, of the Node process
}

type hardhatRun struct {
	DeployNS int64 `json:"deploy_ns"`
	ReplayNS int64 `json:"replay_ns"`
	// ReplayCPUUS is process.cpuUsage() over the replay: user and system
	// time of the whole Node process, EDR's threads included.
	ReplayCPUUS int64    `json:"replay_cpu_us"`
	Statuses    []string `json:"statuses"`
	Gas         []uint64 `json:"gas"`
	Reasons     []string `json:"reasons"`
	Error       string   `json:"error"`
}

// newHardhatJob describes the deployment and msgs for hardhat.js.
func newHardhatJob(rec *deploy.Record, d *deploy.Deployment, msgs []message, runs int) (*hardhatJob, error) {
	code, err := d.Contract.CreationCode(d.Libraries)
	if err != nil {
		return nil, err
	}
	job := &hardhatJob{Runs: runs, Deployer: strings.ToLower(d.Deployer.Hex()), Address: strings.ToLower(d.Address.Hex()),
		Creation: "0x" + hex.EncodeToString(append(code, d.Args...)), Value: rec.CreationValue().String(),
		Gas: deploy.DeployGas, Block: d.Block.Number, Time: d.Block.Time}
	if rec.Creation != nil {
		job.Nonce = rec.Creation.Nonce
	}
	for _, addr := range d.Libraries {
		job.Libraries = append(job.Libraries, hardhatLib{Address: addr.Hex(), Code: "0x" + hex.EncodeToString(d.Chain.Code(addr))})
	}
	for _, m := range msgs {
		job.Txs = append(job.Txs, hardhatTx{From: strings.ToLower(m.from.Hex()), Data: "0x" + hex.EncodeToString(m.data),
			Value: m.value.String(), Gas: m.gas, Number: m.block.Number, Time: m.block.Time})
	}
	return job, nil
}

// replay runs one job in a fresh Node process under the hardfork named, so
// every contract starts from Hardhat's own genesis and no state is shared.
func (hh *Hardhat) replay(ctx context.Context, job *hardhatJob, hardfork string, timeout time.Duration) (*hardhatResult, error) {
	f, err := os.CreateTemp("", "solbench-job-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(job); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, hh.Node, filepath.Join(hh.Dir, "hardhat.js"), f.Name())
	cmd.Dir = hh.Dir
	cmd.Env = append(hardhatEnv(), "SOLBENCH_HARDFORK="+hardfork, "SOLBENCH_COINBASE="+chain.Coinbase.Hex(),
		"HARDHAT_DISABLE_TELEMETRY_PROMPT=true")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	res := &hardhatResult{}
	if err := json.Unmarshal(lastLine(stdout.Bytes()), res); err != nil {
		return nil, fmt.Errorf("hardhat.js: %v; no result (%v)\n%s", runErr, err, tail(stderr.String(), 2000))
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			res.MaxRSS = ru.Maxrss * 1024 // Linux reports KiB
		}
	}
	if res.Error != "" {
		return res, errors.New("hardhat.js: " + tail(res.Error, 2000))
	}
	if len(res.Runs) != job.Runs {
		return res, fmt.Errorf("hardhat.js: %d runs, want %d", len(res.Runs), job.Runs)
	}
	return res, nil
}

// hardhatEnv is the environment without anything that would steer Hardhat
// or Node elsewhere (HARDHAT_* parameters, NODE_OPTIONS).
func hardhatEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HARDHAT_") && !strings.HasPrefix(kv, "NODE_OPTIONS=") {
			env = append(env, kv)
		}
	}
	return env
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// mainnetForks are the block numbers (then, from Shanghai, the timestamps)
// at which mainnet changed its rules, by Hardhat's names.
var mainnetForks = []struct {
	name   string
	number uint64
	time   uint64
}{
	{"homestead", 1_150_000, 0}, {"dao", 1_920_000, 0}, {"tangerineWhistle", 2_463_000, 0},
	{"spuriousDragon", 2_675_000, 0}, {"byzantium", 4_370_000, 0}, {"petersburg", 7_280_000, 0},
	{"istanbul", 9_069_000, 0}, {"muirGlacier", 9_200_000, 0}, {"berlin", 12_244_000, 0},
	{"london", 12_965_000, 0}, {"arrowGlacier", 13_773_000, 0}, {"grayGlacier", 15_050_000, 0},
	{"merge", chain.MainnetMergeBlock, 0}, {"shanghai", 0, 1_681_338_455}, {"cancun", 0, 1_710_338_135},
}

// oldestHardhatFork is the oldest hardfork Hardhat 2's network accepts
// (HARDHAT_NETWORK_SUPPORTED_HARDFORKS starts there).
const oldestHardhatFork = "byzantium"

// hardhatFork is the hardfork Hardhat runs a replay from block b under:
// mainnet's, or Byzantium for anything older, which Hardhat cannot run.
func hardhatFork(b chain.Block) string {
	name := hardforkAt(b)
	for _, f := range mainnetForks {
		if f.name == oldestHardhatFork {
			if b.Number < f.number {
				return oldestHardhatFork
			}
			break
		}
	}
	return name
}

// hardforkAt is the mainnet hardfork of block b, by Hardhat's name. Hardhat's
// in-process network runs one hardfork from genesis on, so a replay that
// crosses a fork boundary runs past it under the older rules there.
func hardforkAt(b chain.Block) string {
	name := "chainstart"
	for _, f := range mainnetForks {
		if (f.time == 0 && b.Number >= f.number) || (f.time != 0 && b.Time >= f.time) {
			name = f.name
		}
	}
	return name
}
