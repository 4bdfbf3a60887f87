// Command docdb runs an embedded FerretDB 1.24 that speaks the MongoDB wire
// protocol, on PostgreSQL (with GIN twins of its indexes, see gin_twins.sql)
// or on SQLite. It is the local stand-in for MongoDB used by ./dev;
// production uses real MongoDB.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	if err := run(); err != nil {
		slog.Error("docdb failed", "error", err)
		os.Exit(1)
	}
}

// Garbage collection: FerretDB allocates ~35 KB per command (BSON decoded to
// its types, SQL built, rows decoded) over a live heap of 2-3 MB. At Go's
// default GOGC=100 the heap goal is the 4 MB minimum, so under 500 writes a
// second it collects six to eight times a second; at 400 the goal is ~16 MB
// and it collects every 0.75 s (GODEBUG=gctrace=1). docdb's CPU per saved
// reading position, five pairs of alternating runs (`pnpm bench:api --
// --only=last-location`, /proc): median 0.47 ms at 100, 0.41 at 400. The
// memory limit keeps the heap bounded whatever the load. GOGC and GOMEMLIMIT
// in the environment win, as usual.
const (
	gcPercent   = 400
	memoryLimit = 256 << 20
)

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

func run() error {
	tuneGC()
	listen := flag.String("listen", envOr("DOCDB_LISTEN", "127.0.0.1:27017"),
		"TCP address to listen on (env DOCDB_LISTEN)")
	listenUnix := flag.String("listen-unix", envOr("DOCDB_LISTEN_UNIX", ""),
		"Unix domain socket path to listen on as well, none if empty (env DOCDB_LISTEN_UNIX)")
	backend := flag.String("backend", envOr("DOCDB_BACKEND", "postgresql"),
		"storage backend: postgresql or sqlite (env DOCDB_BACKEND)")
	postgresqlURL := flag.String("postgresql-url",
		envOr("DOCDB_POSTGRESQL_URL", "postgres://postgres@127.0.0.1:5432/ferretdb"),
		"PostgreSQL database for -backend postgresql (env DOCDB_POSTGRESQL_URL)")
	ginTwins := flag.Bool("gin-twins", true,
		"with -backend postgresql, install the trigger that adds GIN indexes FerretDB's lookups can use")
	dataDir := flag.String("data-dir", envOr("DOCDB_DATA_DIR", defaultDataDir()),
		"directory for the SQLite databases, with -backend sqlite (env DOCDB_DATA_DIR)")
	logLevel := flag.String("log-level", envOr("DOCDB_LOG_LEVEL", "info"),
		"log level: debug, info, warn or error (env DOCDB_LOG_LEVEL)")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("invalid -log-level %q: %w", *logLevel, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	config := &ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *listen, Unix: *listenUnix},
		Logger:   logger,
		Handler:  *backend,
	}
	var where []any
	switch *backend {
	case "postgresql":
		u, err := postgresURL(*postgresqlURL)
		if err != nil {
			return err
		}
		if *ginTwins {
			if err := installGinTwins(ctx, u, 30*time.Second, logger); err != nil {
				return err
			}
		}
		config.PostgreSQLURL = u
		where = []any{"postgresql", redact(u)}
	case "sqlite":
		dir, err := filepath.Abs(*dataDir)
		if err != nil {
			return fmt.Errorf("data dir: %w", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create data dir: %w", err)
		}
		// FerretDB wants a "file:" URI of an existing directory, ending with "/".
		config.SQLiteURL = "file:" + (&url.URL{Path: dir + "/"}).EscapedPath()
		where = []any{"data_dir", dir}
	default:
		return fmt.Errorf("invalid -backend %q: want postgresql or sqlite", *backend)
	}

	f, err := ferretdb.New(config)
	if err != nil {
		return fmt.Errorf("start FerretDB: %w", err)
	}

	logger.Info("docdb ready", append([]any{"uri", f.MongoDBURI(), "backend", *backend}, where...)...)
	if err := f.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	logger.Info("docdb stopped")
	return nil
}

func envOr(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return def
}

// defaultDataDir is <repo>/.local/docdb: the repository root is found by
// walking up from the working directory to the first directory holding
// pnpm-workspace.yaml; failing that, ./.local/docdb is used.
func defaultDataDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join(".local", "docdb")
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "pnpm-workspace.yaml")); err == nil {
			return filepath.Join(d, ".local", "docdb")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(wd, ".local", "docdb")
		}
	}
}
