//go:build tools

// Package tools pins Jaeger all-in-one, built by ./dev obs (see README.md).
package tools

import _ "github.com/jaegertracing/jaeger/cmd/all-in-one"
