// Command docdb runs an embedded FerretDB 1.24 (SQLite backend) that speaks
// the MongoDB wire protocol. It is the local stand-in for MongoDB used by
// ./dev; production uses real MongoDB.
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
	"strings"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	if err := run(); err != nil {
		slog.Error("docdb failed", "error", err)
		os.Exit(1)
	}
}

func run() error {
	listen := flag.String("listen", envOr("DOCDB_LISTEN", "127.0.0.1:27017"),
		"TCP address to listen on (env DOCDB_LISTEN)")
	dataDir := flag.String("data-dir", envOr("DOCDB_DATA_DIR", defaultDataDir()),
		"directory for the SQLite databases (env DOCDB_DATA_DIR)")
	logLevel := flag.String("log-level", envOr("DOCDB_LOG_LEVEL", "info"),
		"log level: debug, info, warn or error (env DOCDB_LOG_LEVEL)")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("invalid -log-level %q: %w", *logLevel, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)

	dir, err := filepath.Abs(*dataDir)
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	// FerretDB wants a "file:" URI of an existing directory, ending with "/".
	sqliteURL := "file:" + (&url.URL{Path: dir + "/"}).EscapedPath()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		return fmt.Errorf("start FerretDB: %w", err)
	}

	logger.Info("docdb ready", "uri", f.MongoDBURI(), "data_dir", dir)
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
