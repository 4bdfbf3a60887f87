package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ginTwinsSQL installs the event trigger that gives every B-tree index
// FerretDB creates a GIN twin its equality pushdown can use (see the file).
//
//go:embed gin_twins.sql
var ginTwinsSQL string

// postgresURL returns u with plan_cache_mode=force_custom_plan unless the
// caller chose a mode: FerretDB keeps prepared statements, whose generic
// plans see `_jsonb -> $1` and so can never match an index on
// `_jsonb -> 'field'`; a custom plan sees the field name.
func postgresURL(u string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("invalid -postgresql-url: %w", err)
	}
	if parsed.Scheme != "postgres" && parsed.Scheme != "postgresql" {
		return "", fmt.Errorf("invalid -postgresql-url %q: want postgres://user@host:port/database", u)
	}
	q := parsed.Query()
	if !q.Has("plan_cache_mode") {
		q.Set("plan_cache_mode", "force_custom_plan")
	}
	parsed.RawQuery = q.Encode()
	return parsed.String(), nil
}

// installGinTwins connects to FerretDB's PostgreSQL database, (re)installs
// the GIN twin trigger and creates the twins of indexes made before it.
// PostgreSQL may still be starting, so the connection is retried for up to
// wait. Event triggers need a superuser: a clear error says so.
func installGinTwins(ctx context.Context, u string, wait time.Duration, logger *slog.Logger) error {
	conn, err := connectWithRetry(ctx, u, wait)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())

	// No arguments: pgx sends it with the simple protocol, which runs the
	// whole multi-statement script in one round trip.
	if _, err := conn.Exec(ctx, ginTwinsSQL); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42501" {
			return fmt.Errorf("installing the GIN index trigger needs a PostgreSQL superuser "+
				"(or run with -gin-twins=false, and every lookup scans): %w", err)
		}
		return fmt.Errorf("install GIN index trigger: %w", err)
	}
	var created int
	if err := conn.QueryRow(ctx, "SELECT docdb_gin.backfill()").Scan(&created); err != nil {
		return fmt.Errorf("create missing GIN indexes: %w", err)
	}
	logger.Info("GIN index trigger installed", "backfilled_indexes", created)
	return nil
}

// connectWithRetry connects to the database of u, creating it when the
// server says it does not exist (a fresh cluster has only "postgres").
func connectWithRetry(ctx context.Context, u string, wait time.Duration) (*pgx.Conn, error) {
	deadline := time.Now().Add(wait)
	for {
		conn, err := pgx.Connect(ctx, u)
		if err == nil {
			return conn, nil
		}
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "3D000" { // invalid_catalog_name
			if err := createDatabase(ctx, u); err != nil {
				return nil, err
			}
			continue
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("connect to PostgreSQL (%s): %w", redact(u), err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// createDatabase creates the database named in u, connected to the
// maintenance database "postgres" of the same server as the same user.
func createDatabase(ctx context.Context, u string) error {
	parsed, err := url.Parse(u)
	if err != nil {
		return err
	}
	name := strings.TrimPrefix(parsed.Path, "/")
	parsed.Path = "/postgres"
	conn, err := pgx.Connect(ctx, parsed.String())
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL to create database %q: %w", name, err)
	}
	defer conn.Close(context.Background())
	// UTF8 and C collation: what FerretDB accepts (it checks at connect).
	q := fmt.Sprintf("CREATE DATABASE %s ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
		pgx.Identifier{name}.Sanitize())
	if _, err := conn.Exec(ctx, q); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: created meanwhile
			return nil
		}
		return fmt.Errorf("create database %q: %w", name, err)
	}
	slog.Info("PostgreSQL database created", "database", name)
	return nil
}

// redact hides a password for logs and errors.
func redact(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return parsed.Redacted()
}
