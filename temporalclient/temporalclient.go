// Package temporalclient turns the configuration into the Temporal client options every
// supportdraft process uses: address and namespace, the payload codec (so the API, the
// worker, evals and benches all write encrypted payloads), TLS or mTLS, and an API key.
package temporalclient

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/config"
)

// Options builds client.Options from cfg; the logger may be nil.
func Options(cfg config.Config, logger tlog.Logger) (client.Options, error) {
	keys, err := codec.ParseKeys(cfg.CodecKeys)
	if err != nil {
		return client.Options{}, err
	}
	opts := client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace, Logger: logger,
		DataConverter: codec.DataConverter(keys), FailureConverter: codec.FailureConverter(keys)}
	if cfg.TemporalTLS {
		tc, err := tlsConfig(cfg)
		if err != nil {
			return client.Options{}, err
		}
		opts.ConnectionOptions.TLS = tc
	}
	if cfg.TemporalAPIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(cfg.TemporalAPIKey)
	}
	return opts, nil
}

func tlsConfig(cfg config.Config) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.TemporalCA != "" {
		pem, err := os.ReadFile(cfg.TemporalCA)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA %s: no PEM certificate in it", cfg.TemporalCA)
		}
	}
	if cfg.TemporalCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TemporalCert, cfg.TemporalKey)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/TEMPORAL_TLS_KEY: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}
