// Command temporal-dev is an embedded, single-process Temporal server with
// SQLite persistence, for tests and for trying the Temporal engine on one
// machine. It lives in its own module so the solbehave binary links only the
// Temporal SDK; `solbehave temporal dev-server` builds it on first use.
//
//	temporal-dev --port 7233 [--db FILE] [--namespace default]
//
// Without --db the state is in memory and is lost when the process exits.
// It prints "ready HOST:PORT" on stdout once the frontend accepts calls.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

const clusterName = "active"

func main() {
	ip := flag.String("ip", "127.0.0.1", "address the frontend listens on")
	port := flag.Int("port", 7233, "frontend gRPC port; the other services take the next three ports")
	db := flag.String("db", "", "SQLite file that keeps the server's state across restarts (default: in memory)")
	namespace := flag.String("namespace", "default", "namespace created at start")
	level := flag.String("log-level", "warn", "server log level (debug, info, warn, error)")
	flag.Parse()
	if err := serve(*ip, *port, *db, *namespace, *level); err != nil {
		fmt.Fprintln(os.Stderr, "temporal-dev:", err)
		os.Exit(1)
	}
}

func serve(ip string, port int, db, namespace, level string) error {
	store := sqliteStore(db)
	if err := prepareStore(store, db, namespace); err != nil {
		return err
	}
	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{Level: level, Format: "console"}))
	srv, err := temporal.NewServer(
		temporal.WithConfig(serverConfig(ip, port, store)),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorization.NewNoopAuthorizer()),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return authorization.NewNoopClaimMapper() }),
		temporal.WithDynamicConfigClient(devDynamicConfig()),
	)
	if err != nil {
		return err
	}
	if err := srv.Start(); err != nil {
		return err
	}
	defer srv.Stop()
	addr := net.JoinHostPort(ip, strconv.Itoa(port))
	if err := waitHealthy(addr, namespace, 2*time.Minute); err != nil {
		return err
	}
	fmt.Println("ready", addr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return nil
}

// sqliteStore is the persistence config: a file when db is set, else a
// shared in-memory database (one process, so one connection pool sees it).
func sqliteStore(db string) *config.SQL {
	s := &config.SQL{PluginName: sqliteplugin.PluginName, ConnectAttributes: map[string]string{}}
	if db == "" {
		s.DatabaseName = fmt.Sprintf("solbehave-%d", os.Getpid())
		s.ConnectAttributes["mode"] = "memory"
		s.ConnectAttributes["cache"] = "shared"
		return s
	}
	s.DatabaseName = db
	s.ConnectAttributes["mode"] = "rwc"
	return s
}

// prepareStore creates the schema in a new database file (the SQLite plugin
// creates it itself in memory) and the namespace (a no-op when it exists).
func prepareStore(store *config.SQL, db, namespace string) error {
	if db != "" {
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			return err
		}
		if _, err := os.Stat(db); os.IsNotExist(err) {
			if err := sqlite.SetupSchema(store); err != nil {
				return fmt.Errorf("sqlite schema: %w", err)
			}
		}
	}
	ns, err := sqlite.NewNamespaceConfig(clusterName, namespace, false, nil)
	if err != nil {
		return err
	}
	return sqlite.CreateNamespaces(store, ns)
}

// serverConfig runs the four services in this process on consecutive
// ports (frontend = port), with one history shard: a dev server, not a cluster.
func serverConfig(ip string, port int, store *config.SQL) *config.Config {
	frontend := net.JoinHostPort(ip, strconv.Itoa(port))
	service := func(offset int) config.Service {
		return config.Service{RPC: config.RPC{GRPCPort: port + offset, MembershipPort: port + 100 + offset, BindOnIP: ip}}
	}
	return &config.Config{
		Global: config.Global{Membership: config.Membership{MaxJoinDuration: 30 * time.Second, BroadcastAddress: ip}},
		Persistence: config.Persistence{
			DefaultStore: sqliteplugin.PluginName, VisibilityStore: sqliteplugin.PluginName, NumHistoryShards: 1,
			DataStores: map[string]config.DataStore{sqliteplugin.PluginName: {SQL: store}},
		},
		ClusterMetadata: &cluster.Config{
			MasterClusterName: clusterName, CurrentClusterName: clusterName, FailoverVersionIncrement: 10,
			ClusterInformation: map[string]cluster.ClusterInformation{
				clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: frontend},
			},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services: map[string]config.Service{
			"frontend": service(0), "history": service(1), "matching": service(2), "worker": service(3),
		},
		Archival: config.Archival{
			History:    config.HistoryArchival{State: "disabled"},
			Visibility: config.VisibilityArchival{State: "disabled"},
		},
		NamespaceDefaults: config.NamespaceDefaults{Archival: config.ArchivalNamespaceDefaults{
			History:    config.HistoryArchivalNamespaceDefaults{State: "disabled"},
			Visibility: config.VisibilityArchivalNamespaceDefaults{State: "disabled"},
		}},
		PublicClient: config.PublicClient{HostPort: frontend},
	}
}

// devDynamicConfig uses one task-queue partition: with a handful of workers,
// several partitions only add forwarding latency to every task.
func devDynamicConfig() dynamicconfig.StaticClient {
	return dynamicconfig.StaticClient{
		dynamicconfig.MakeKey("matching.numTaskqueueReadPartitions"):  1,
		dynamicconfig.MakeKey("matching.numTaskqueueWritePartitions"): 1,
	}
}

// waitHealthy returns once the frontend answers a health check through the
// SDK, which is what workers and `solbehave run` call first; an open port
// alone is not enough (the frontend says "not healthy yet" for a while).
func waitHealthy(addr, namespace string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		err := checkHealth(addr, namespace)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("frontend %s not healthy after %s: %w", addr, limit, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func checkHealth(addr, namespace string) error {
	c, err := client.Dial(client.Options{HostPort: addr, Namespace: namespace, Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		return err
	}
	// The namespace must be served too: a worker polls it right away.
	_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	return err
}
